// Reads of the departments read model, always scoped to one tenant.
import { sql } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { Department, DepartmentState } from '../../src/domain/departments/index.js';
import {
  activeDocuments,
  getDocument,
  isUuid,
  listDocuments,
  listItemOf,
  type DocumentListQuery,
  type Tombstone,
} from '../document-queries.js';
import type { SeekPage } from '../keyset.js';

const TABLE = 'rm_departments';
const departmentOf = (s: DepartmentState): Department[] => (s.kind === 'Existing' ? [s.department] : []);

export async function getDepartment(
  db: Db,
  tenantId: string,
  id: string,
): Promise<{ department: Department; revision: number } | undefined> {
  const row = await getDocument<DepartmentState>(db, TABLE, tenantId, id);
  const [department] = row ? departmentOf(row.doc) : [];
  return row && department ? { department, revision: row.revision } : undefined;
}

export async function listDepartments(db: Db, tenantId: string, q: DocumentListQuery): Promise<SeekPage<Department | Tombstone>> {
  const page = await listDocuments<DepartmentState>(db, TABLE, tenantId, q);
  return {
    ...page,
    rows: page.rows.flatMap((s) => listItemOf(s.kind === 'Absent' ? s : { ...s, record: s.department })),
  };
}

/** The active departments of the tenant among `ids` (archived ones too with includeArchived), by (lower-case) id. */
export async function activeDepartments(
  db: Db,
  tenantId: string,
  ids: readonly string[],
  o: { includeArchived?: boolean } = {},
): Promise<Map<string, Department>> {
  const docs = await activeDocuments<DepartmentState>(db, TABLE, tenantId, ids, o);
  return new Map([...docs].flatMap(([id, s]) => departmentOf(s).map((d) => [id, d] as const)));
}

/** The department and its ancestors, nearest first (bounded: a chain already cyclic stops). */
export async function ancestorChain(db: Db, tenantId: string, id: string): Promise<string[]> {
  if (!isUuid(id)) return [];
  const r = await sql<{ id: string }>`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 0 from rm_departments where tenant_id = ${tenantId}::uuid and id = ${id}::uuid and not is_deleted
      union all
      select d.id, d.parent_id, c.depth + 1 from rm_departments d join chain c on d.id = c.parent_id
      where d.tenant_id = ${tenantId}::uuid and not d.is_deleted and c.depth < 1000
    )
    select id::text as id from chain order by depth`.execute(db);
  return r.rows.map((x) => x.id);
}

/**
 * What still names the department: active employees in it, sub-departments under it. An employee's
 * departmentId is compared without case: a UUID is case-insensitive on input, and one sent upper-case
 * was stored as sent (a delete counted none of them and went through; an outside probe, session 16).
 * The lower-cased comparison scans the tenant's employees rather than using the expression index;
 * deletes are rare.
 */
export async function departmentReferences(db: Db, tenantId: string, id: string): Promise<Record<string, number>> {
  const [employees, departments] = await Promise.all([
    sql<{ n: number }>`select count(*)::int as n from rm_employees where tenant_id = ${tenantId}::uuid
      and lower(doc->'employee'->>'departmentId') = lower(${id}) and not is_archived`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from rm_departments where tenant_id = ${tenantId}::uuid
      and parent_id = ${id}::uuid and not is_deleted`.execute(db),
  ]);
  return { employees: Number(employees.rows[0]?.n ?? 0), departments: Number(departments.rows[0]?.n ?? 0) };
}
