// Vehicle state: nothing before creation, then the current record, then a tombstone.
import type { VehicleEvent } from './events.js';
import type { Vehicle } from './model.js';

export type VehicleState =
  { kind: 'Absent' } | { kind: 'Existing'; vehicle: Vehicle } | { kind: 'Deleted'; vehicle: Vehicle; deletedAt: string };

export const initialState = (): VehicleState => ({ kind: 'Absent' });

export function evolve(state: VehicleState, event: VehicleEvent): VehicleState {
  switch (event.type) {
    case 'VehicleCreated': {
      const { vehicleId, record, at } = event.data;
      return { kind: 'Existing', vehicle: { ...record, id: vehicleId, createdAt: at, editedAt: at } };
    }
    case 'VehicleUpdated':
      return state.kind === 'Existing'
        ? { kind: 'Existing', vehicle: { ...state.vehicle, ...event.data.record, editedAt: event.data.at } }
        : state;
    case 'VehicleDeleted':
      return state.kind === 'Existing'
        ? { kind: 'Deleted', vehicle: { ...state.vehicle, editedAt: event.data.at }, deletedAt: event.data.at }
        : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** The registration number the vehicle holds among the tenant's active ones (none when archived or deleted). */
export const activeCode = (state: VehicleState): string | null =>
  state.kind === 'Existing' && !state.vehicle.isArchived ? state.vehicle.registrationNumber : null;
