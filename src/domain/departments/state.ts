// Department state: nothing before creation, then the current record, then a tombstone.
import type { DepartmentEvent } from './events.js';
import type { Department } from './model.js';

export type DepartmentState =
  { kind: 'Absent' } | { kind: 'Existing'; department: Department } | { kind: 'Deleted'; department: Department; deletedAt: string };

export const initialState = (): DepartmentState => ({ kind: 'Absent' });

export function evolve(state: DepartmentState, event: DepartmentEvent): DepartmentState {
  switch (event.type) {
    case 'DepartmentCreated': {
      const { departmentId, record, at } = event.data;
      return { kind: 'Existing', department: { ...record, id: departmentId, createdAt: at, editedAt: at } };
    }
    case 'DepartmentUpdated':
      return state.kind === 'Existing'
        ? { kind: 'Existing', department: { ...state.department, ...event.data.record, editedAt: event.data.at } }
        : state;
    case 'DepartmentDeleted':
      return state.kind === 'Existing'
        ? { kind: 'Deleted', department: { ...state.department, editedAt: event.data.at }, deletedAt: event.data.at }
        : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** The code the department holds among the tenant's active ones (none when archived or deleted). */
export const activeCode = (state: DepartmentState): string | null =>
  state.kind === 'Existing' && !state.department.isArchived ? state.department.code : null;
