// The vehicle decider (stream `vehicle-{id}`) and its public types.
import type { Decider } from '../decider.js';
import type { VehicleCommand } from './commands.js';
import { decide } from './decide.js';
import type { VehicleEvent } from './events.js';
import { evolve, initialState, type VehicleState } from './state.js';

export const vehicleDecider: Decider<VehicleCommand, VehicleState, VehicleEvent> = { initialState, evolve, decide };

/** The stream category: the feature's identity in the store. */
export const VEHICLE_CATEGORY = 'vehicle';
export const streamName = (vehicleId: string): string => `${VEHICLE_CATEGORY}-${vehicleId}`;

export type * from './commands.js';
export type * from './events.js';
export type * from './model.js';
export type { VehicleState } from './state.js';
export { activeCode } from './state.js';
export { ENGINE_CAPACITY_CC_MAX, ENGINE_CAPACITY_CC_MIN, FUEL_TYPES, OWNERSHIPS } from './model.js';
