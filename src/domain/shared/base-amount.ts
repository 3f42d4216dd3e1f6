// A converted amount in the base currency is bounded like every amount a request carries, and a
// positive amount that a manual rate turns into 0.00 is refused: the expense, advance and per-diem
// paths (validate-common.ts, single-row.ts) share the rule and its words.
import { compareDecimals, MAX_AMOUNT } from './decimal.js';

/** The problem with a base amount (a plain decimal), or null. */
export function baseAmountProblem(base: string, opts: { positiveAmount: boolean; manualRate: boolean }): string | null {
  if (compareDecimals(base, String(MAX_AMOUNT)) > 0)
    return `In the base currency this is ${base}, more than the largest amount accepted (${MAX_AMOUNT}).`;
  if (opts.manualRate && opts.positiveAmount && compareDecimals(base, '0') === 0)
    return "In the base currency this is less than 0.005, which rounds to 0.00. Check the rate: it is in the provider's direction, per 1 unit.";
  return null;
}
