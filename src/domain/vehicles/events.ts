// Vehicle events (stream `vehicle-{id}`). Type strings never change once stored.
import type { DomainEvent } from '../decider.js';
import type { VehicleRecord } from './model.js';

export type VehicleCreated = DomainEvent<'VehicleCreated', { vehicleId: string; record: VehicleRecord; at: string }>;
/** A full replacement (archiving included): `record` is the whole new record. */
export type VehicleUpdated = DomainEvent<'VehicleUpdated', { vehicleId: string; record: VehicleRecord; at: string }>;
export type VehicleDeleted = DomainEvent<'VehicleDeleted', { vehicleId: string; at: string }>;

export type VehicleEvent = VehicleCreated | VehicleUpdated | VehicleDeleted;
