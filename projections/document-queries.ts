// Reads shared by the document read models of the organization resources (rm_cost_centers,
// rm_departments, rm_vehicles): one row by id, a page of rows, the active ids among some. Every
// read takes the tenant; deleted rows (is_deleted) are returned only as a list's tombstones, when
// the list asks for them (includeDeleted).
import { sql } from 'kysely';
import type { Db } from '../src/infra/database.js';
import { BY_CREATION, BY_SYNC_KEY, seekPage, type PageRequest, type SeekPage } from './keyset.js';

export type OrganizationTable = 'rm_cost_centers' | 'rm_departments' | 'rm_vehicles';

export interface DocumentListQuery {
  page: PageRequest;
  updatedSince?: string | undefined;
  includeArchived?: boolean | undefined;
  /** Deleted records too, as tombstones (the incremental sync sees deletions). */
  includeDeleted?: boolean | undefined;
}

/** What a list shows of a deleted record with includeDeleted=true: its id and when it went. */
export interface Tombstone {
  id: string;
  isDeleted: true;
  deletedAt: string;
  createdAt: string;
  editedAt: string;
}

/** A record's list item: the record, its tombstone once deleted, nothing before it exists. */
export function listItemOf<R extends { id: string; createdAt: string; editedAt: string }>(
  s: { kind: 'Absent' } | { kind: 'Existing'; record: R } | { kind: 'Deleted'; record: R; deletedAt: string },
): (R | Tombstone)[] {
  if (s.kind === 'Existing') return [s.record];
  if (s.kind === 'Deleted')
    return [{ id: s.record.id, isDeleted: true, deletedAt: s.deletedAt, createdAt: s.record.createdAt, editedAt: s.record.editedAt }];
  return [];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string): boolean => UUID.test(s);

export async function getDocument<S>(
  db: Db,
  table: OrganizationTable,
  tenantId: string,
  id: string,
): Promise<{ doc: S; revision: number } | undefined> {
  if (!isUuid(id)) return undefined;
  const r = await sql<{ doc: S; revision: number }>`
    select doc, revision from ${sql.table(table)}
    where tenant_id = ${tenantId}::uuid and id = ${id}::uuid and not is_deleted`.execute(db);
  const row = r.rows[0];
  return row ? { doc: row.doc, revision: Number(row.revision) } : undefined;
}

/**
 * Stable order: with updatedSince (incremental sync) the order the projection wrote the rows in
 * (sync_seq, id: a row written late still comes after every row a client has paged past), else
 * creation then id.
 */
export async function listDocuments<S>(db: Db, table: OrganizationTable, tenantId: string, q: DocumentListQuery): Promise<SeekPage<S>> {
  const where = [sql`tenant_id = ${tenantId}::uuid`];
  // A deleted record is listed (as a tombstone) only when asked for, archived or not. An archived one
  // is listed when asked for, and by default in an incremental sync: a mirror kept by updatedSince
  // would otherwise never learn that a record it holds was archived (outside try, session 23).
  const withArchived = q.includeArchived ?? q.updatedSince !== undefined;
  const live = withArchived ? sql`not is_deleted` : sql`not is_deleted and not is_archived`;
  where.push(q.includeDeleted === true ? sql`(is_deleted or (${live}))` : live);
  if (q.updatedSince !== undefined) where.push(sql`edited_at >= ${q.updatedSince}::timestamptz`);
  const order = q.updatedSince !== undefined ? BY_SYNC_KEY : BY_CREATION;
  const r = await seekPage<{ doc: S }>(db, { table, select: sql`doc`, where, order, page: q.page });
  return { ...r, rows: r.rows.map((x) => x.doc) };
}

/** The active (not archived, not deleted) rows of the tenant among `ids` (archived ones too with includeArchived), by id. */
export async function activeDocuments<S>(
  db: Db,
  table: OrganizationTable,
  tenantId: string,
  ids: readonly string[],
  o: { includeArchived?: boolean } = {},
): Promise<Map<string, S>> {
  const wanted = [...new Set(ids.filter(isUuid))];
  if (wanted.length === 0) return new Map();
  const archived = o.includeArchived ? sql`` : sql`and not is_archived`;
  const r = await sql<{ id: string; doc: S }>`
    select id::text as id, doc from ${sql.table(table)}
    where tenant_id = ${tenantId}::uuid and id = any(${wanted}::uuid[]) ${archived} and not is_deleted`.execute(db);
  return new Map(r.rows.map((x) => [x.id.toLowerCase(), x.doc]));
}
