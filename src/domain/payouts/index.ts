// The payout-batch decider (stream `payoutBatch-{id}`) and the multi-stream payout helpers.
import type { Decider } from '../decider.js';
import type { PayoutBatchCommand } from './commands.js';
import { decide } from './decide.js';
import type { PayoutBatchEvent } from './events.js';
import { evolve, initialState, type PayoutBatchState } from './state.js';

export const payoutBatchDecider: Decider<PayoutBatchCommand, PayoutBatchState, PayoutBatchEvent> = { initialState, evolve, decide };

/** The stream category (the part of a stream id before the first '-'): the feature's identity in the store. */
export const PAYOUT_BATCH_CATEGORY = 'payoutBatch';
export const streamName = (batchId: string): string => `${PAYOUT_BATCH_CATEGORY}-${batchId}`;

export type * from './commands.js';
export type * from './events.js';
export type { PayoutBatch, PayoutBatchKind, PayoutBatchState } from './state.js';
export { isReversalPending, isUnsettled, PAYOUT_BATCH_STATUSES, upgradeState } from './state.js';
export { MAX_ENTRIES_PER_BATCH } from './decide.js';
export { PAYOUT_METHODS, type PayoutMethod } from '../shared/payout-method.js';
export {
  entryEventsToSettle,
  isReadyForPayout,
  planPayoutBatchCreation,
  planPayoutBatchDeletion,
  type EntryEvents,
  type PayoutPlan,
} from './plan.js';
export { entriesToCompensate, isPaidIn, rejectionOf, settlementFor } from './outcome.js';
