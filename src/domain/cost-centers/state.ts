// Cost-center state: nothing before creation, then the current record, then a tombstone.
import type { CostCenterEvent } from './events.js';
import type { CostCenter } from './model.js';

export type CostCenterState =
  { kind: 'Absent' } | { kind: 'Existing'; costCenter: CostCenter } | { kind: 'Deleted'; costCenter: CostCenter; deletedAt: string };

export const initialState = (): CostCenterState => ({ kind: 'Absent' });

export function evolve(state: CostCenterState, event: CostCenterEvent): CostCenterState {
  switch (event.type) {
    case 'CostCenterCreated': {
      const { costCenterId, record, at } = event.data;
      return { kind: 'Existing', costCenter: { ...record, id: costCenterId, createdAt: at, editedAt: at } };
    }
    case 'CostCenterUpdated':
      return state.kind === 'Existing'
        ? { kind: 'Existing', costCenter: { ...state.costCenter, ...event.data.record, editedAt: event.data.at } }
        : state;
    case 'CostCenterDeleted':
      return state.kind === 'Existing'
        ? { kind: 'Deleted', costCenter: { ...state.costCenter, editedAt: event.data.at }, deletedAt: event.data.at }
        : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** The code the cost center holds among the tenant's active ones (none when archived or deleted). */
export const activeCode = (state: CostCenterState): string | null =>
  state.kind === 'Existing' && !state.costCenter.isArchived ? state.costCenter.code : null;
