// Whether an entry's employee exists in the caller's company. Existence is monotonic: employees are
// archived, never deleted, and a read-model row never changes tenant, so a "yes" can be remembered
// for the life of the process (one statement less per create); a "no" is always asked again, so an
// employee registered a moment ago is found, and a "no" is believed only once the employees read
// model has caught up with the log (read-model-gate.ts). Only a projection rebuild empties the
// table for a while, and then a remembered employee is still right. One instance per process,
// created by the composition root.
import type { Db } from '../../infra/database.js';
import { getEmployee } from '../../../projections/employees/queries.js';
import type { ReadModelGate } from '../read-model-gate.js';

const MAX_REMEMBERED = 100_000;

export class KnownEmployees {
  private readonly known = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly gate: ReadModelGate,
  ) {}

  /** Field errors for the entry's `employeeId`: none when it names an employee of the tenant. */
  async errorsFor(tenantId: string, employeeId: unknown): Promise<Record<string, string[]>> {
    if (typeof employeeId !== 'string') return {};
    const key = `${tenantId}/${employeeId}`;
    if (this.known.has(key)) return {};
    const found = await this.gate.confirmed(
      ['employees'],
      () => getEmployee(this.db, tenantId, employeeId),
      (employee) => !employee,
    );
    if (!found) return { employeeId: ['No such employee in this company.'] };
    if (this.known.size >= MAX_REMEMBERED) this.known.clear();
    this.known.add(key);
    return {};
  }
}
