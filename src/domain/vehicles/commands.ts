// Vehicle commands. The client's fields arrive as parsed JSON (the HTTP schema has checked the
// types); the owner's existence and the references a delete would break are the shell's lookups.
import type { FieldErrors } from '../errors.js';

/** The request body of POST and PUT. Omitted optional fields are cleared on PUT (engineCapacityCc too). */
export interface VehicleFields {
  registrationNumber: string;
  make?: string | null;
  model?: string | null;
  /** Allow-list: `Company`, `Private`. */
  ownership: string;
  employeeId?: string | null;
  /** Allow-list: see FUEL_TYPES. */
  fuelType?: string | null;
  engineCapacityCc?: number | null;
  isArchived?: boolean | null;
}

export type CreateVehicle = { type: 'CreateVehicle'; data: { vehicleId: string; fields: VehicleFields; lookupErrors: FieldErrors } };
export type ReplaceVehicle = { type: 'ReplaceVehicle'; data: { vehicleId: string; fields: VehicleFields; lookupErrors: FieldErrors } };
export type DeleteVehicle = {
  type: 'DeleteVehicle';
  /** `references`: what still names the vehicle, counted by kind (shell lookup). */
  data: { vehicleId: string; references: Record<string, number> };
};

export type VehicleCommand = CreateVehicle | ReplaceVehicle | DeleteVehicle;
