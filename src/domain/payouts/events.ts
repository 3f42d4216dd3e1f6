// Payout-batch events (stream `payoutBatch-{id}`). Type strings never change once stored. Each
// entry of the batch records its own TravelEntryPaidOut / TravelEntryPayoutReversed (see plan.ts).
import type { DomainEvent } from '../decider.js';
import type { PayoutMethod } from '../shared/payout-method.js';

export type PayoutBatchCreated = DomainEvent<'PayoutBatchCreated', {
  batchId: string;
  entryIds: string[];
  payoutMethod: PayoutMethod;
  payoutDate: string;
  at: string;
}>;
/** Deleting a batch reverses it: its entries are no longer paid out. */
export type PayoutBatchDeleted = DomainEvent<'PayoutBatchDeleted', { batchId: string; reason: string | null; at: string }>;

export type PayoutBatchEvent = PayoutBatchCreated | PayoutBatchDeleted;
