// What an employee register or replacement looks up in the shell, per attempt: the tenant's
// custom-field definitions, the shipped municipality codes, and whether `departmentId` names an
// active department of the company. A department that does not is a lookup error the decider
// judges together with the profile's own problems, so the client gets one 400 naming every field.
import type { EmployeeProfileFacts } from '../../domain/employees/index.js';
import type { FieldErrors } from '../../domain/errors.js';
import type { Db } from '../../infra/database.js';
import { getTenant } from '../../tenancy/tenants.js';
import { municipalityCodes } from '../reference/municipalities.js';
import { activeDepartments } from '../../../projections/departments/queries.js';
import type { ReadModelGate } from '../read-model-gate.js';

export async function employeeProfileFacts(
  db: Db,
  gate: ReadModelGate,
  tenantId: string,
  fields: { departmentId?: string | null },
): Promise<EmployeeProfileFacts> {
  const departmentId = fields.departmentId?.trim() || null;
  // A missing department is believed once the departments read model has caught up (read-model-gate.ts).
  const [tenant, departments] = await Promise.all([
    getTenant(db, tenantId),
    departmentId
      ? gate.confirmed(
          ['departments'],
          () => activeDepartments(db, tenantId, [departmentId]),
          (found) => !found.has(departmentId.toLowerCase()),
        )
      : Promise.resolve(new Map()),
  ]);
  if (!tenant) throw new Error(`tenant ${tenantId} of an authenticated request was not found`);
  const lookupErrors: FieldErrors = {};
  if (departmentId && !departments.has(departmentId.toLowerCase())) {
    lookupErrors.departmentId = ['No such active department in this company.'];
  }
  return { customFieldDefinitions: tenant.customFields, municipalityCodes: municipalityCodes(), lookupErrors };
}
