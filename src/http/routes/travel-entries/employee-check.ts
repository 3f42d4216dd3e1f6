// Whether an entry's employee exists in the caller's company. Existence is monotonic: employees are
// archived, never deleted, and a read-model row never changes tenant, so a "yes" can be remembered
// for the life of the process (one statement less per create); a "no" is always asked again, so an
// employee registered a moment ago is found. Only a projection rebuild empties the table for a
// while, and then a remembered employee is still right.
import type { Db } from '../../../infra/database.js';
import { getEmployee } from '../../../../projections/employees/queries.js';

const MAX_REMEMBERED = 100_000;
const known = new Set<string>();

export async function employeeErrors(db: Db, tenantId: string, employeeId: unknown): Promise<Record<string, string[]>> {
  if (typeof employeeId !== 'string') return {};
  const key = `${tenantId}/${employeeId}`;
  if (known.has(key)) return {};
  if (!(await getEmployee(db, tenantId, employeeId))) return { employeeId: ['No such employee in this company.'] };
  if (known.size >= MAX_REMEMBERED) known.clear();
  known.add(key);
  return {};
}
