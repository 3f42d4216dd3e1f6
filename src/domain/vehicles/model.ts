// The vehicle record as events carry it and state holds it. Canonical enumeration strings are the
// API's allow-lists: once published they never change.

export const OWNERSHIPS = ['Company', 'Private'] as const;
export type Ownership = (typeof OWNERSHIPS)[number];

export const FUEL_TYPES = ['Petrol', 'Diesel', 'Electric', 'Hybrid', 'PlugInHybrid', 'LPG', 'CNG', 'Hydrogen', 'Other'] as const;
export type FuelType = (typeof FUEL_TYPES)[number];

export const ENGINE_CAPACITY_CC_MIN = 1;
export const ENGINE_CAPACITY_CC_MAX = 20_000;

/** Everything a create or a full replacement sets; absent optional values are null. */
export interface VehicleRecord {
  /** As entered (trimmed); unique per tenant among active vehicles without case, spaces and dashes. */
  registrationNumber: string;
  make: string | null;
  model: string | null;
  ownership: Ownership;
  /** The owner; required for `Private`. */
  employeeId: string | null;
  fuelType: FuelType | null;
  /** Cubic centimetres, 1 to 20,000 (spec change history, 2026-08-23). */
  engineCapacityCc: number | null;
  isArchived: boolean;
}

export interface Vehicle extends VehicleRecord {
  id: string;
  createdAt: string;
  editedAt: string;
}
