// Reads of the travel-entries read model, always scoped to one tenant.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { TravelEntry } from '../../src/domain/travel-entries/index.js';
import type { RmTravelEntriesTable } from './tables.js';

type Stored = Selectable<RmTravelEntriesTable>;

export interface EntryRow {
  entry: TravelEntry;
  revision: number;
}

export async function getTravelEntry(db: Db, tenantId: string, id: string): Promise<EntryRow | undefined> {
  const r = await sql<Pick<Stored, 'doc' | 'revision'>>`
    select doc, revision from rm_travel_entries where tenant_id = ${tenantId}::uuid and id = ${id}::uuid`.execute(db);
  const row = r.rows[0];
  return row && row.doc.kind === 'Existing' ? { entry: row.doc.entry, revision: Number(row.revision) } : undefined;
}

export interface EntryListQuery {
  page: number;
  pageSize: number;
  status?: string | undefined;
  employeeId?: string | undefined;
  updatedSince?: string | undefined;
  readyForPayout?: boolean;
  /** Tombstones of deleted entries too (for incremental sync); the filters apply to the entry as it was deleted. */
  includeDeleted?: boolean | undefined;
}

/** A row of the list: a live entry, or the tombstone of a deleted one (the entry as it was deleted). */
export type ListedTravelEntry = { entry: TravelEntry; deletedAt: null } | { entry: TravelEntry; deletedAt: string };

/**
 * A stable order, so paging never skips or repeats a row between calls: edit time then id for
 * incremental sync (updatedSince), creation time then id otherwise. A tombstone's edit time is its
 * deletion time, so a sync from before the deletion sees it.
 */
export async function listTravelEntryRows(
  db: Db,
  tenantId: string,
  q: EntryListQuery,
): Promise<{ items: ListedTravelEntry[]; total: number }> {
  const conds = [sql`tenant_id = ${tenantId}::uuid`];
  if (!q.includeDeleted) conds.push(sql`deleted_at is null`);
  if (q.status !== undefined) conds.push(sql`status = ${q.status}`);
  if (q.employeeId !== undefined) conds.push(sql`employee_id = ${q.employeeId}::uuid`);
  if (q.updatedSince !== undefined) conds.push(sql`edited_at >= ${q.updatedSince}::timestamptz`);
  if (q.readyForPayout) conds.push(sql`ready_for_payout`);
  const where = sql.join(conds, sql` and `);
  const order = q.updatedSince !== undefined ? sql`edited_at, id` : sql`created_at, id`;
  const [rows, count] = await Promise.all([
    sql<
      Pick<Stored, 'doc'>
    >`select doc from rm_travel_entries where ${where} order by ${order} limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`.execute(
      db,
    ),
    sql<{ n: number }>`select count(*)::int as n from rm_travel_entries where ${where}`.execute(db),
  ]);
  const items = rows.rows.flatMap((r): ListedTravelEntry[] => {
    const doc = r.doc;
    if (doc.kind === 'Existing') return [{ entry: doc.entry, deletedAt: null }];
    if (doc.kind === 'Deleted') return [{ entry: doc.entry, deletedAt: doc.deletedAt }];
    return [];
  });
  return { items, total: Number(count.rows[0]?.n ?? 0) };
}

/** Live entries only (deleted ones never). */
export async function listTravelEntries(
  db: Db,
  tenantId: string,
  q: Omit<EntryListQuery, 'includeDeleted'>,
): Promise<{ items: TravelEntry[]; total: number }> {
  const { items, total } = await listTravelEntryRows(db, tenantId, { ...q, includeDeleted: false });
  return { items: items.map((i) => i.entry), total };
}
