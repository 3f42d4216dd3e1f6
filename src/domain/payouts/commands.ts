// Payout-batch commands. The batch id is chosen by the shell (it names the stream).
import type { RejectedEntry } from './events.js';

export type CreatePayoutBatch = {
  type: 'CreatePayoutBatch';
  data: {
    batchId: string;
    entryIds: string[];
    /** Allow-list: `BankTransfer`, `Cash`, `Payroll`. */
    payoutMethod: string;
    /** `yyyy-MM-dd`: the day the money is paid. */
    payoutDate: string;
  };
};
/** Ends the creation process with the outcome read from the entry streams. */
export type SettlePayoutBatch = {
  type: 'SettlePayoutBatch';
  data: { batchId: string; takenEntryIds: string[]; rejectedEntries: RejectedEntry[] };
};
export type DeletePayoutBatch = { type: 'DeletePayoutBatch'; data: { batchId: string; reason?: string | null } };
/** Ends the reversal process of a deleted batch. */
export type CompletePayoutBatchReversal = { type: 'CompletePayoutBatchReversal'; data: { batchId: string; reversedEntryIds: string[] } };

export type PayoutBatchCommand = CreatePayoutBatch | SettlePayoutBatch | DeletePayoutBatch | CompletePayoutBatchReversal;
