// Whether an entry's employee exists in the caller's company. Existence is monotonic: employees are
// archived, never deleted, and a read-model row never changes tenant, so a "yes" can be remembered
// for the life of the process (one statement less per create); a "no" is always asked again, so an
// employee registered a moment ago is found. Only a projection rebuild empties the table for a
// while, and then a remembered employee is still right. One instance per process, created by the
// composition root.
import type { Db } from '../../infra/database.js';
import { getEmployee } from '../../../projections/employees/queries.js';

const MAX_REMEMBERED = 100_000;

export class KnownEmployees {
  private readonly known = new Set<string>();

  constructor(private readonly db: Db) {}

  /** Field errors for the entry's `employeeId`: none when it names an employee of the tenant. */
  async errorsFor(tenantId: string, employeeId: unknown): Promise<Record<string, string[]>> {
    if (typeof employeeId !== 'string') return {};
    const key = `${tenantId}/${employeeId}`;
    if (this.known.has(key)) return {};
    if (!(await getEmployee(this.db, tenantId, employeeId))) return { employeeId: ['No such employee in this company.'] };
    if (this.known.size >= MAX_REMEMBERED) this.known.clear();
    this.known.add(key);
    return {};
  }
}
