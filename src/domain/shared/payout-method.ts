// How a payout batch pays the employees: the API's `PayoutMethod` allow-list (canonical strings,
// never renamed once published). Shared because both payout batches and the entries they pay
// record it.

export const PAYOUT_METHODS = ['BankTransfer', 'Cash', 'Payroll'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

export const isPayoutMethod = (value: unknown): value is PayoutMethod => (PAYOUT_METHODS as readonly unknown[]).includes(value);
