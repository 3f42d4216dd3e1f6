// Shared checks of every parser: one figure per (date, currency) in a file (the upsert would
// otherwise apply two different values in one statement), a currency code, a positive rate.
import { DecimalFormatError, parseDecimal } from '../../money/decimal.js';
import type { ProviderCode } from '../providers.js';
import { isIsoDate } from '../rate-date.js';
import type { ParsedRate } from '../types.js';
import { RatesFormatError } from './format-error.js';

const CURRENCY = /^[A-Z]{3}$/;

export class RateCollector {
  private readonly seen = new Map<string, number>();
  readonly rates: ParsedRate[] = [];

  constructor(
    private readonly provider: ProviderCode,
    private readonly origin: string | undefined,
  ) {}

  fail(line: number, detail: string): never {
    throw new RatesFormatError(this.provider, this.origin, line, detail);
  }

  /** Validates one row's raw fields and keeps it; `rateText` is in the feed's own notation. */
  add(line: number, raw: { date: string; currency: string; rateText: string; unitsText?: string; decimalComma: boolean }): void {
    if (!isIsoDate(raw.date)) this.fail(line, `date "${raw.date}" is not a calendar date`);
    if (!CURRENCY.test(raw.currency)) this.fail(line, `currency "${raw.currency}" is not an ISO 4217 code`);
    let rate: string;
    try {
      const d = parseDecimal(raw.rateText, { decimalComma: raw.decimalComma });
      if (!d.greaterThan(0)) this.fail(line, `rate ${raw.rateText} of ${raw.currency} is not positive`);
      rate = d.toFixed();
    } catch (e) {
      if (e instanceof DecimalFormatError) this.fail(line, `rate of ${raw.currency}: ${e.message}`);
      throw e;
    }
    let units = 1;
    if (raw.unitsText !== undefined) {
      if (!/^\d+$/.test(raw.unitsText) || Number(raw.unitsText) <= 0)
        this.fail(line, `amount "${raw.unitsText}" of ${raw.currency} is not a positive whole number`);
      units = Number(raw.unitsText);
    }
    const key = `${raw.date} ${raw.currency}`;
    const first = this.seen.get(key);
    if (first !== undefined) this.fail(line, `${raw.currency} on ${raw.date} is listed twice (first on line ${first})`);
    this.seen.set(key, line);
    this.rates.push({ date: raw.date, currency: raw.currency, rate, units });
  }
}
