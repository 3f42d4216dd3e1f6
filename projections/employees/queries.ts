// Reads of the employees read model, always scoped to one tenant.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { Employee } from '../../src/domain/employees/index.js';
import type { RmEmployeesTable } from './tables.js';
import { BY_CREATION, BY_SYNC_KEY, seekPage, type PageRequest, type SeekPage } from '../keyset.js';

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
  page: PageRequest;
  status?: string | undefined;
  isArchived?: boolean | undefined;
  updatedSince?: string | undefined;
}

/** Stable order: the projection's write order (sync_seq, id) with updatedSince (incremental sync), else creation then id. */
export async function listEmployees(db: Db, tenantId: string, q: EmployeeListQuery): Promise<SeekPage<Employee>> {
  const where = [sql`tenant_id = ${tenantId}::uuid`];
  if (q.status !== undefined) where.push(sql`status = ${q.status}`);
  if (q.isArchived !== undefined) where.push(sql`is_archived = ${q.isArchived}`);
  if (q.updatedSince !== undefined) where.push(sql`edited_at >= ${q.updatedSince}::timestamptz`);
  const order = q.updatedSince !== undefined ? BY_SYNC_KEY : BY_CREATION;
  const r = await seekPage<Pick<Stored, 'doc'>>(db, { table: 'rm_employees', select: sql`doc`, where, order, page: q.page });
  return { ...r, rows: r.rows.flatMap((x) => (x.doc.kind === 'Registered' ? [x.doc.employee] : [])) };
}

/** Active, not archived employees of the tenant among `ids` (eligible approvers). */
/**
 * Which of `ids` are employees of the tenant (archived or inactive too), each with whether it is
 * active: an absent id is what a read model behind the log can explain, an inactive one is not.
 */
export async function employeeActivity(db: Db, tenantId: string, ids: string[]): Promise<Map<string, boolean>> {
  if (ids.length === 0) return new Map();
  const r = await sql<{ id: string; active: boolean }>`
    select id::text as id, (status = 'Active' and not is_archived) as active from rm_employees
    where tenant_id = ${tenantId}::uuid and id = any(${ids}::uuid[])`.execute(db);
  return new Map(r.rows.map((x) => [x.id, x.active]));
}
