// Money arithmetic on decimal.js: a binary float cannot hold 0.1 or a provider rate such as
// 1.134600 exactly, and a travel-expense settlement must reproduce to the cent what an accountant
// gets by hand. Every amount and rate in the codebase passes through this module, and every money
// result is rounded by the ONE rule below (docs/money.md explains the choice).
import { Decimal } from 'decimal.js';

/**
 * A private Decimal constructor, so no other module's `Decimal.set` can change our precision or
 * rounding. 40 significant digits: a rate has at most ~10, an amount ~15, so the single division
 * of a conversion is exact far beyond the cent before the final rounding.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Dec = Decimal;

/** Money results carry two decimal places (cents, hellers: all four tenants' currencies). */
export const MONEY_DECIMAL_PLACES = 2;
/**
 * Half-up (a tie goes away from zero): the euro-conversion rounding of Council Regulation (EC)
 * No 1103/97 art. 5 and the "commercial rounding" of spreadsheet ROUND, so an employee or auditor
 * recomputing a row by hand gets the same cent. See docs/money.md.
 */
export const MONEY_ROUNDING = Decimal.ROUND_HALF_UP;

export type DecimalInput = Dec | string | number;

export class DecimalFormatError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'DecimalFormatError';
  }
}

const POINT_DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const COMMA_DECIMAL = /^[+-]?\d+(,\d+)?$/;

/**
 * Parses a plain decimal string exactly. `decimalComma` is for the HNB and CNB feeds ("1,134600");
 * thousands separators are never accepted, because "1.234" would be ambiguous in those locales.
 */
export function parseDecimal(text: string, opts: { decimalComma?: boolean } = {}): Dec {
  const s = text.trim();
  const ok = opts.decimalComma ? COMMA_DECIMAL.test(s) : POINT_DECIMAL.test(s);
  if (!ok) {
    const expected = opts.decimalComma ? 'digits with an optional decimal comma' : 'digits with an optional decimal point';
    throw new DecimalFormatError(`"${text}" is not a decimal number (expected ${expected})`);
  }
  return new Dec(opts.decimalComma ? s.replace(',', '.') : s);
}

/**
 * Any accepted input as a Decimal. A JS number (from a JSON body) is taken by its shortest
 * round-trip decimal form (0.1 → "0.1"), never by its binary expansion.
 */
export function toDecimal(value: DecimalInput): Dec {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new DecimalFormatError(`${value} is not a finite number`);
    return new Dec(String(value));
  }
  if (typeof value === 'string') return parseDecimal(value);
  return new Dec(value);
}

/** The one money rounding rule: 2 decimal places, half-up. */
export function roundMoney(value: DecimalInput): Dec {
  return toDecimal(value).toDecimalPlaces(MONEY_DECIMAL_PLACES, MONEY_ROUNDING);
}

/** A money amount as the canonical string "1234.50" (rounded by the money rule). */
export function formatMoney(value: DecimalInput): string {
  return roundMoney(value).toFixed(MONEY_DECIMAL_PLACES);
}

/** A rate as a plain decimal string with the digits it has (never exponent notation). */
export function formatDecimal(value: DecimalInput): string {
  return toDecimal(value).toFixed();
}

/**
 * How a rate is quoted. `ForeignPerBase` (HNB, ECB): `rate` foreign units buy `units` base units,
 * so divide. `BasePerForeign` (CNB): `rate` base units buy `units` foreign units, so multiply.
 */
export type RateDirection = 'ForeignPerBase' | 'BasePerForeign';

export interface ConversionRate {
  rate: Dec | string;
  units: number;
  direction: RateDirection;
}

/**
 * Converts a foreign-currency amount into the provider's base currency and rounds the result by
 * the money rule. One rounding, at the end: the rate itself is never rounded.
 *   ForeignPerBase: base = amount × units / rate   (e.g. 100 USD at 1.1346 USD/EUR = 88.14 EUR)
 *   BasePerForeign: base = amount × rate / units   (e.g. 1000 HUF at 6.514 CZK/100 HUF = 65.14 CZK)
 */
export function toBaseCurrency(amount: DecimalInput, rate: ConversionRate): Dec {
  const a = toDecimal(amount);
  const r = typeof rate.rate === 'string' ? parseDecimal(rate.rate) : rate.rate;
  if (!(r.isFinite() && r.greaterThan(0))) throw new DecimalFormatError(`exchange rate must be positive (got ${r.toString()})`);
  if (!Number.isInteger(rate.units) || rate.units <= 0)
    throw new DecimalFormatError(`rate units must be a positive integer (got ${rate.units})`);
  const exact = rate.direction === 'ForeignPerBase' ? a.times(rate.units).dividedBy(r) : a.times(r).dividedBy(rate.units);
  return roundMoney(exact);
}
