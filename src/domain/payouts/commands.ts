// Payout-batch commands. The batch id is chosen by the shell (it names the stream).

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
export type DeletePayoutBatch = { type: 'DeletePayoutBatch'; data: { batchId: string; reason?: string | null } };

export type PayoutBatchCommand = CreatePayoutBatch | DeletePayoutBatch;
