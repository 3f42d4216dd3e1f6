// Reads of the employees read model, always scoped to one tenant.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { Employee } from '../../src/domain/employees/index.js';
import type { RmEmployeesTable } from './tables.js';

type Stored = Selectable<RmEmployeesTable>;

export interface EmployeeRow {
  employee: Employee;
  revision: number;
}

export async function getEmployee(db: Db, tenantId: string, id: string): Promise<EmployeeRow | undefined> {
  const r = await sql<Pick<Stored, 'doc' | 'revision'>>`
    select doc, revision from rm_employees where tenant_id = ${tenantId}::uuid and id = ${id}::uuid`.execute(db);
  const row = r.rows[0];
  return row && row.doc.kind === 'Registered' ? { employee: row.doc.employee, revision: Number(row.revision) } : undefined;
}

export interface EmployeeListQuery {
  page: number;
  pageSize: number;
  status?: string | undefined;
  isArchived?: boolean | undefined;
  updatedSince?: string | undefined;
}

/** Stable order: by last edit then id with updatedSince (incremental sync), else by creation then id. */
export async function listEmployees(db: Db, tenantId: string, q: EmployeeListQuery): Promise<{ items: Employee[]; total: number }> {
  const conds = [sql`tenant_id = ${tenantId}::uuid`];
  if (q.status !== undefined) conds.push(sql`status = ${q.status}`);
  if (q.isArchived !== undefined) conds.push(sql`is_archived = ${q.isArchived}`);
  if (q.updatedSince !== undefined) conds.push(sql`edited_at >= ${q.updatedSince}::timestamptz`);
  const where = sql.join(conds, sql` and `);
  const order = q.updatedSince !== undefined ? sql`edited_at, id` : sql`created_at, id`;
  const [rows, count] = await Promise.all([
    sql<
      Pick<Stored, 'doc'>
    >`select doc from rm_employees where ${where} order by ${order} limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from rm_employees where ${where}`.execute(db),
  ]);
  return {
    items: rows.rows.flatMap((r) => (r.doc.kind === 'Registered' ? [r.doc.employee] : [])),
    total: Number(count.rows[0]?.n ?? 0),
  };
}

/** Active, not archived employees of the tenant among `ids` (eligible approvers). */
export async function activeEmployeeIds(db: Db, tenantId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const r = await sql<Pick<Stored, 'id'>>`
    select id::text as id from rm_employees where tenant_id = ${tenantId}::uuid and id = any(${ids}::uuid[])
    and status = 'Active' and not is_archived`.execute(db);
  return new Set(r.rows.map((x) => x.id));
}
