// Vehicles: create, replace (archiving included), delete, list and read (crud-routes.ts). The
// registration number is unique among the company's active vehicles (ignoring case, spaces and
// dashes), held by a claim stream (src/application/code-claims); a named owner must be an active
// employee of the company.
import { activeCode, vehicleDecider, streamName, type VehicleFields, type VehicleState } from '../../../domain/vehicles/index.js';
import type { FieldErrors } from '../../../domain/errors.js';
import type { Db } from '../../../infra/database.js';
import type { ReadModelGate } from '../../../application/read-model-gate.js';
import { UniqueCodes } from '../../../application/code-claims/unique-codes.js';
import { getVehicle, listVehicles, vehicleReferences } from '../../../../projections/vehicles/queries.js';
import { getEmployee } from '../../../../projections/employees/queries.js';
import { travelEntriesProjection } from '../../../../projections/travel-entries/projection.js';
import { vehiclesProjection } from '../../../../projections/vehicles/projection.js';
import { crudRoutes } from '../crud-routes.js';
import { OrganizationListQuery } from '../cost-centers/schemas.js';
import { Vehicle, VehicleBody, VehiclePage } from './schemas.js';

const existing = (state: VehicleState) => {
  if (state.kind !== 'Existing') throw new Error('a vehicle command left no vehicle');
  return state.vehicle;
};

/**
 * The owner must be an employee of the company who is not archived; looked up per attempt. Archiving
 * is always allowed (docs/decisions.md): a vehicle being archived may keep the owner it has, archived
 * meanwhile (a private vehicle whose owner left could otherwise never be archived), never name a new
 * archived one.
 */
async function lookupErrorsOf(
  db: Db,
  readModels: ReadModelGate,
  tenantId: string,
  fields: VehicleFields,
  state?: VehicleState,
): Promise<FieldErrors> {
  const { employeeId } = fields;
  if (!employeeId) return {};
  const row = await readModels.confirmed(
    ['employees'],
    () => getEmployee(db, tenantId, employeeId),
    (found) => !found,
  );
  const stored = state?.kind === 'Existing' ? state.vehicle.employeeId : null;
  const keeps = fields.isArchived === true && stored !== null && stored?.toLowerCase() === employeeId.toLowerCase();
  return row && (!row.employee.isArchived || keeps) ? {} : { employeeId: ['No such active employee in this company.'] };
}

export const vehicleRoutes = crudRoutes({
  path: '/vehicles',
  tags: ['Vehicles'],
  noun: 'Vehicle',
  summaries: {
    create: 'Register a vehicle',
    replace: 'Replace a vehicle (isArchived archives or restores it; omitted optional fields, engineCapacityCc included, are cleared)',
    delete: 'Delete a vehicle no travel entry names (else 409 RESOURCE_IN_USE: archive it instead)',
    list: 'List vehicles',
    read: 'Read a vehicle',
  },
  schemas: { body: VehicleBody, item: Vehicle, page: VehiclePage, listQuery: OrganizationListQuery },
  projection: vehiclesProjection.name,
  // A delete counts references once these have caught up (crud-routes.ts).
  referencedIn: ['travel-entries'],
  // An entry shows the names, kept by the travel-entries projection (reference-changes.ts).
  alsoShownBy: [travelEntriesProjection.name],
  decider: vehicleDecider,
  streamName,
  itemOf: existing,
  writeErrors: ['CODE_TAKEN'],
  guards: (app) =>
    new UniqueCodes(app.deps.store, { kind: 'vehicle', field: 'registrationNumber', activeCode, streamName, decider: vehicleDecider }),
  commands: (db, readModels) => ({
    create: async (vehicleId, fields, ctx) => ({
      type: 'CreateVehicle' as const,
      data: { vehicleId, fields, lookupErrors: await lookupErrorsOf(db, readModels, ctx.tenantId, fields) },
    }),
    replace: async (vehicleId, fields, ctx, state) => ({
      type: 'ReplaceVehicle' as const,
      data: { vehicleId, fields, lookupErrors: await lookupErrorsOf(db, readModels, ctx.tenantId, fields, state) },
    }),
    delete: async (vehicleId, ctx) => ({
      type: 'DeleteVehicle' as const,
      data: { vehicleId, references: await vehicleReferences(db, ctx.tenantId, vehicleId) },
    }),
  }),
  reads: {
    get: async (db, tenantId, id) => {
      const row = await getVehicle(db, tenantId, id);
      return row && { item: row.vehicle, revision: row.revision };
    },
    list: listVehicles,
  },
});
