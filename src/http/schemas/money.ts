// Money on the wire: JSON numbers in responses (computed with a decimal library, never floats),
// and in requests a JSON number or a decimal string (for clients that keep money as text).
import { Type } from '@sinclair/typebox';
import { MAX_AMOUNT } from '../../domain/shared/decimal.js';

export { MAX_AMOUNT };

export const MoneyIn = Type.Union(
  [
    Type.Number({ minimum: -MAX_AMOUNT, maximum: MAX_AMOUNT }),
    // The same bound as the number: up to nine integer digits, or 1,000,000,000 itself.
    Type.String({ pattern: '^-?(\\d{1,9}(\\.\\d{1,6})?|1000000000(\\.0{1,6})?)$', description: 'A decimal string, e.g. "123.45".' }),
  ],
  { description: 'An amount: a JSON number or a decimal string.' },
);

/**
 * MoneyIn with the rule the core holds the field to, in its description: the wire schema stays
 * loose so the core's refusal, keyed by field in words ("At most 2 decimal places."), is what a
 * client gets, and the document still tells a partner the rule before the first 400 (contract
 * try, session 27).
 */
export function moneyIn(rule: string) {
  return { ...MoneyIn, description: `An amount: a JSON number or a decimal string. ${rule}` };
}

export const RateIn = Type.Union(
  // The string's bounds are the number's too: above zero (a zero rate would divide by zero), up to
  // six integer digits, or 1,000,000 itself.
  [
    Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
    Type.String({ pattern: '^(?!0+(\\.0+)?$)(\\d{1,6}(\\.\\d{1,10})?|1000000(\\.0{1,10})?)$' }),
  ],
  { description: "An exchange rate in the provider's direction, per 1 unit." },
);

export const Money = Type.Number({ description: 'A decimal amount.' });

/** Decimal strings from the core, as JSON numbers (exact for the 2-decimal amounts we keep). */
export const toNumber = (v: string | null): number | null => (v === null ? null : Number(v));
