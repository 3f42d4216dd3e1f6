// Vehicles read model (rm_vehicles), folded with the domain's own evolve. A deleted vehicle keeps
// its row (is_deleted) so a rebuild gives the same rows; reads leave it out.
import { VEHICLE_CATEGORY, vehicleDecider, type VehicleState } from '../../src/domain/vehicles/index.js';
import type { VehicleEvent } from '../../src/domain/vehicles/events.js';
import { documentProjection } from '../document-projection.js';

export const vehiclesProjection = documentProjection<VehicleState>({
  name: 'vehicles',
  category: VEHICLE_CATEGORY,
  table: 'rm_vehicles',
  initialState: vehicleDecider.initialState,
  evolve: (s, e) => vehicleDecider.evolve(s, e as VehicleEvent),
  columns: (s) =>
    s.kind === 'Absent'
      ? undefined
      : {
          employee_id: s.vehicle.employeeId,
          is_archived: s.vehicle.isArchived,
          is_deleted: s.kind === 'Deleted',
          created_at: s.vehicle.createdAt,
          edited_at: s.vehicle.editedAt,
        },
});
