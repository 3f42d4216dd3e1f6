// Employee state: nothing before registration, then the current record.
import type { EmployeeEvent } from './events.js';
import type { Employee } from './model.js';

export type EmployeeState = { kind: 'Unregistered' } | { kind: 'Registered'; employee: Employee };

export const initialState = (): EmployeeState => ({ kind: 'Unregistered' });

export function evolve(state: EmployeeState, event: EmployeeEvent): EmployeeState {
  switch (event.type) {
    case 'EmployeeRegistered': {
      const { employeeId, profile, at } = event.data;
      return { kind: 'Registered', employee: { ...profile, id: employeeId, isArchived: false, createdAt: at, editedAt: at } };
    }
    case 'EmployeeUpdated': {
      if (state.kind !== 'Registered') return state;
      const { profile, at } = event.data;
      return { kind: 'Registered', employee: { ...state.employee, ...profile, editedAt: at } };
    }
    case 'EmployeeArchived': {
      if (state.kind !== 'Registered') return state;
      return { kind: 'Registered', employee: { ...state.employee, isArchived: true, editedAt: event.data.at } };
    }
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
