// Payout-batch events (stream `payoutBatch-{id}`). Type strings never change once stored; how
// each one is read today is written down in docs/payouts.md.
//
// A batch is a process over many streams. The batch stream records the request and the
// outcome; which batch pays an entry is recorded on the ENTRY's stream alone (TravelEntryPaidOut
// with its payoutBatchId, appended at the entry's expected revision), so two batches can never
// both hold an entry.
import type { DomainEvent } from '../decider.js';
import type { PayoutMethod } from '../shared/payout-method.js';

/**
 * The batch was requested for these entries. It says nothing about which entries the batch
 * took: that is PayoutBatchSettled's job. Streams written before the settlement existed hold
 * only this event; they read as a request whose process was never finished, and are settled
 * by the resumer from the entry streams (docs/payouts.md, "Legacy streams").
 */
export type PayoutBatchCreated = DomainEvent<
  'PayoutBatchCreated',
  {
    batchId: string;
    /** The entries asked for, not the entries paid (see PayoutBatchSettled.takenEntryIds). */
    entryIds: string[];
    payoutMethod: PayoutMethod;
    payoutDate: string;
    at: string;
  }
>;

/** Why an asked-for entry is not in the batch. */
export interface RejectedEntry {
  entryId: string;
  /** ALREADY_PAID_OUT, INVALID_TRANSITION, NOT_FOUND, NOT_REACHED, or the entry decider's code. */
  code: string;
  reason: string;
  /** The batch that holds the entry, for ALREADY_PAID_OUT. */
  payoutBatchId?: string | null;
}

/**
 * The creation process ended: the entries the batch holds (each one's stream says paid out in
 * this batch) and, per other entry, why not. Terminal for the creation; recorded once.
 */
export type PayoutBatchSettled = DomainEvent<
  'PayoutBatchSettled',
  {
    batchId: string;
    takenEntryIds: string[];
    rejectedEntries: RejectedEntry[];
    at: string;
  }
>;

/** Deleting a batch reverses it: its entries are no longer paid out. Starts the reversal. */
export type PayoutBatchDeleted = DomainEvent<'PayoutBatchDeleted', { batchId: string; reason: string | null; at: string }>;

/** The reversal process ended: every entry this batch had paid now records its reversal. */
export type PayoutBatchReversalCompleted = DomainEvent<
  'PayoutBatchReversalCompleted',
  {
    batchId: string;
    reversedEntryIds: string[];
    at: string;
  }
>;

export type PayoutBatchEvent = PayoutBatchCreated | PayoutBatchSettled | PayoutBatchDeleted | PayoutBatchReversalCompleted;
