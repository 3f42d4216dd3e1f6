// Payout-batch state. The kinds follow the process:
//   Processing (requested, entries being reserved) -> Created (settled, holds >= 1 entry)
//                                                  -> Rejected (settled, holds none)
//   Processing | Created -> Deleted (reversal running until reversedEntryIds is set).
// A deleted batch stays in the stream (and the history) as Deleted.
import type { PayoutMethod } from '../shared/payout-method.js';
import type { PayoutBatchEvent, RejectedEntry } from './events.js';

export interface PayoutBatch {
  id: string;
  /** The entries ASKED for (PayoutBatchCreated.entryIds). What the batch holds is takenEntryIds. */
  entryIds: string[];
  payoutMethod: PayoutMethod;
  payoutDate: string;
  createdAt: string;
  /** The entries the batch pays; null until the creation process settled. */
  takenEntryIds: string[] | null;
  rejectedEntries: RejectedEntry[];
  settledAt: string | null;
  deletedAt: string | null;
  deletionReason: string | null;
  /** Set once the reversal of a deleted batch completed. */
  reversedEntryIds: string[] | null;
  /**
   * When the reversal completed: the batch then reads as Deleted with its reversed entries, a change
   * an incremental sync must see (absent in documents folded before session 26).
   */
  reversedAt?: string;
}

export const PAYOUT_BATCH_STATUSES = ['Processing', 'Created', 'Rejected', 'Deleted'] as const;
export type PayoutBatchKind = (typeof PAYOUT_BATCH_STATUSES)[number];
export type PayoutBatchState = { kind: 'Absent' } | { kind: PayoutBatchKind; batch: PayoutBatch };

export const initialState = (): PayoutBatchState => ({ kind: 'Absent' });

/** The creation process has not ended: the resumer settles it. */
export const isUnsettled = (s: PayoutBatchState): boolean => s.kind === 'Processing';
/** A deleted batch whose reversal has not completed: the resumer completes it. */
export const isReversalPending = (s: PayoutBatchState): boolean => s.kind === 'Deleted' && s.batch.reversedEntryIds === null;

/**
 * Read-model documents folded by earlier versions lack the process fields: a stored
 * `{ kind: 'Created' }` without `settledAt` was only ever a request (see events.ts), so it reads
 * as Processing, and an old Deleted as a deletion whose reversal is still to be confirmed.
 */
export function upgradeState(state: PayoutBatchState): PayoutBatchState {
  if (state.kind === 'Absent' || 'settledAt' in state.batch) return state;
  const old = state.batch as Omit<PayoutBatch, 'takenEntryIds' | 'rejectedEntries' | 'settledAt' | 'reversedEntryIds'>;
  const batch: PayoutBatch = { ...old, takenEntryIds: null, rejectedEntries: [], settledAt: null, reversedEntryIds: null };
  return { kind: state.kind === 'Created' ? 'Processing' : state.kind, batch };
}

export function evolve(prior: PayoutBatchState, event: PayoutBatchEvent): PayoutBatchState {
  const state = upgradeState(prior);
  switch (event.type) {
    case 'PayoutBatchCreated': {
      const { batchId, entryIds, payoutMethod, payoutDate, at } = event.data;
      return {
        kind: 'Processing',
        batch: {
          id: batchId,
          entryIds,
          payoutMethod,
          payoutDate,
          createdAt: at,
          takenEntryIds: null,
          rejectedEntries: [],
          settledAt: null,
          deletedAt: null,
          deletionReason: null,
          reversedEntryIds: null,
        },
      };
    }
    case 'PayoutBatchSettled': {
      if (state.kind === 'Absent' || state.batch.settledAt !== null) return state;
      const { takenEntryIds, rejectedEntries, at } = event.data;
      const batch = { ...state.batch, takenEntryIds, rejectedEntries, settledAt: at };
      if (state.kind === 'Deleted') return { kind: 'Deleted', batch };
      return { kind: takenEntryIds.length > 0 ? 'Created' : 'Rejected', batch };
    }
    case 'PayoutBatchDeleted':
      if (state.kind !== 'Created' && state.kind !== 'Processing') return state;
      return { kind: 'Deleted', batch: { ...state.batch, deletedAt: event.data.at, deletionReason: event.data.reason } };
    case 'PayoutBatchReversalCompleted':
      if (state.kind !== 'Deleted' || state.batch.reversedEntryIds !== null) return state;
      return { kind: 'Deleted', batch: { ...state.batch, reversedEntryIds: event.data.reversedEntryIds, reversedAt: event.data.at } };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
