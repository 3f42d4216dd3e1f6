// Reads shared by the document read models of the organization resources (rm_cost_centers,
// rm_departments, rm_vehicles): one row by id, a page of rows, the active ids among some. Every
// read takes the tenant; deleted rows (is_deleted) are never returned.
import { sql } from 'kysely';
import type { Db } from '../src/infra/database.js';
import { BY_CREATION, BY_SYNC_KEY, seekPage, type PageRequest, type SeekPage } from './keyset.js';

export type OrganizationTable = 'rm_cost_centers' | 'rm_departments' | 'rm_vehicles';

export interface DocumentListQuery {
  page: PageRequest;
  updatedSince?: string | undefined;
  includeArchived?: boolean | undefined;
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
  const where = [sql`tenant_id = ${tenantId}::uuid`, sql`not is_deleted`];
  if (q.includeArchived !== true) where.push(sql`not is_archived`);
  if (q.updatedSince !== undefined) where.push(sql`edited_at >= ${q.updatedSince}::timestamptz`);
  const order = q.updatedSince !== undefined ? BY_SYNC_KEY : BY_CREATION;
  const r = await seekPage<{ doc: S }>(db, { table, select: sql`doc`, where, order, page: q.page });
  return { ...r, rows: r.rows.map((x) => x.doc) };
}

/** The active (not archived, not deleted) rows of the tenant among `ids`, by id. */
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
