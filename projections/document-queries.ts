// Reads shared by the document read models of the organization resources (rm_cost_centers,
// rm_departments, rm_vehicles): one row by id, a page of rows, the active ids among some. Every
// read takes the tenant; deleted rows (is_deleted) are never returned.
import { sql } from 'kysely';
import type { Db } from '../src/infra/database.js';

export type OrganizationTable = 'rm_cost_centers' | 'rm_departments' | 'rm_vehicles';

export interface DocumentListQuery {
  page: number;
  pageSize: number;
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

/** Stable order: by last edit then id with updatedSince (incremental sync), else by creation then id. */
export async function listDocuments<S>(
  db: Db,
  table: OrganizationTable,
  tenantId: string,
  q: DocumentListQuery,
): Promise<{ docs: S[]; total: number }> {
  const conds = [sql`tenant_id = ${tenantId}::uuid`, sql`not is_deleted`];
  if (q.includeArchived !== true) conds.push(sql`not is_archived`);
  if (q.updatedSince !== undefined) conds.push(sql`edited_at >= ${q.updatedSince}::timestamptz`);
  const where = sql.join(conds, sql` and `);
  const order = q.updatedSince !== undefined ? sql`edited_at, id` : sql`created_at, id`;
  const [rows, count] = await Promise.all([
    sql<{ doc: S }>`select doc from ${sql.table(table)} where ${where} order by ${order}
      limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where ${where}`.execute(db),
  ]);
  return { docs: rows.rows.map((r) => r.doc), total: Number(count.rows[0]?.n ?? 0) };
}

/** The active (not archived, not deleted) rows of the tenant among `ids`, by id. */
export async function activeDocuments<S>(
  db: Db,
  table: OrganizationTable,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, S>> {
  const wanted = [...new Set(ids.filter(isUuid))];
  if (wanted.length === 0) return new Map();
  const r = await sql<{ id: string; doc: S }>`
    select id::text as id, doc from ${sql.table(table)}
    where tenant_id = ${tenantId}::uuid and id = any(${wanted}::uuid[]) and not is_archived and not is_deleted`.execute(db);
  return new Map(r.rows.map((x) => [x.id.toLowerCase(), x.doc]));
}
