// Payout-batch state. A deleted batch stays in the stream (and the history) as Deleted.
import type { PayoutMethod } from '../shared/payout-method.js';
import type { PayoutBatchEvent } from './events.js';

export interface PayoutBatch {
  id: string;
  entryIds: string[];
  payoutMethod: PayoutMethod;
  payoutDate: string;
  createdAt: string;
  deletedAt: string | null;
  deletionReason: string | null;
}

export type PayoutBatchState =
  | { kind: 'Absent' }
  | { kind: 'Created'; batch: PayoutBatch }
  | { kind: 'Deleted'; batch: PayoutBatch };

export const initialState = (): PayoutBatchState => ({ kind: 'Absent' });

export function evolve(state: PayoutBatchState, event: PayoutBatchEvent): PayoutBatchState {
  switch (event.type) {
    case 'PayoutBatchCreated': {
      const { batchId, entryIds, payoutMethod, payoutDate, at } = event.data;
      return { kind: 'Created', batch: { id: batchId, entryIds, payoutMethod, payoutDate, createdAt: at, deletedAt: null, deletionReason: null } };
    }
    case 'PayoutBatchDeleted':
      if (state.kind !== 'Created') return state;
      return { kind: 'Deleted', batch: { ...state.batch, deletedAt: event.data.at, deletionReason: event.data.reason } };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
