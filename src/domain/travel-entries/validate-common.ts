// Field checks shared by the travel-entry validators. Each records its problem under `path` and
// returns the normalized value (null when absent), so a validator reads as a list of fields.
import { isCountryCode } from '../shared/country-codes.js';
import { isCurrencyCode } from '../shared/currency-codes.js';
import { isDate, isUtcInstant } from '../shared/dates.js';
import { baseAmountProblem } from '../shared/base-amount.js';
import { compareDecimals, decimalProblem } from '../shared/decimal.js';
import { isExchangeRateSource, type ExchangeRateSource } from '../shared/exchange-rate-source.js';
import type { FieldErrorCollector } from '../shared/field-errors.js';
import { optionalText, textProblem } from '../shared/text.js';

/** Money: at most 2 decimal places. Rates: up to 10, always positive. */
const MONEY_SCALE = 2;
const RATE_SCALE = 10;

export class Fields {
  constructor(
    readonly errors: FieldErrorCollector,
    readonly prefix: string,
  ) {}

  path(field: string): string {
    return this.prefix === '' ? field : `${this.prefix}.${field}`;
  }

  text(field: string, value: string | null | undefined, maxLength: number, required = false): string | null {
    const v = optionalText(value);
    this.errors.check(this.path(field), textProblem(v, { required, maxLength }));
    return v;
  }

  date(field: string, value: string | null | undefined, required = true): string | null {
    const v = optionalText(value);
    if (v === null) {
      if (required) this.errors.add(this.path(field), 'Required.');
      return null;
    }
    return this.errors.check(this.path(field), isDate(v) ? null : 'Must be a date (yyyy-MM-dd).') ? v : null;
  }

  instant(field: string, value: string | null | undefined): string | null {
    const v = optionalText(value);
    if (v === null) return this.missing(field);
    return this.errors.check(this.path(field), isUtcInstant(v) ? null : 'Must be an ISO 8601 UTC instant (2026-03-01T08:00:00Z).')
      ? v
      : null;
  }

  country(field: string, value: string | null | undefined, required = true): string | null {
    const v = optionalText(value);
    if (v === null) return required ? this.missing(field) : null;
    return this.errors.check(this.path(field), isCountryCode(v) ? null : 'Must be an ISO 3166-1 alpha-2 code such as HR.') ? v : null;
  }

  currency(field: string, value: string | null | undefined): string | null {
    const v = optionalText(value);
    if (v === null) return this.missing(field);
    return this.errors.check(this.path(field), isCurrencyCode(v) ? null : 'Must be an ISO 4217 code such as EUR.') ? v : null;
  }

  money(field: string, value: string | null | undefined, opts: { required: boolean; min: 'zero' | 'positive' }): string | null {
    const v = optionalText(value);
    if (v === null) return opts.required ? this.missing(field) : null;
    return this.errors.check(this.path(field), decimalProblem(v, { min: opts.min, maxScale: MONEY_SCALE })) ? v : null;
  }

  /**
   * The base-currency amount the shell converted an amount into. Its problems come from what the
   * client sent, so they are keyed there, never by this field, which only responses carry (a missing
   * or malformed figure is the shell's defect, and named as it is). Checked when the amount passed
   * and a conversion happened (`source` set), by the rule in shared/base-amount.ts: on the manual
   * rate (source MANUAL), else on the amount. A refused conversion is the shell's to report.
   */
  baseAmount(
    field: string,
    value: string | null | undefined,
    from: { amountField: string; amount: string | null; rateField: string; source: ExchangeRateSource | null },
  ): string | null {
    const v = optionalText(value);
    if (this.errors.errors[this.path(from.amountField)] !== undefined) return v;
    // A missing or malformed figure is the shell's defect, reported as it is.
    if (v === null || decimalProblem(v, { min: 'zero', maxScale: MONEY_SCALE }) !== null)
      return this.money(field, v, { required: true, min: 'zero' });
    if (from.source === null) return v;
    const problem = baseAmountProblem(v, {
      positiveAmount: from.amount !== null && compareDecimals(from.amount, '0') > 0,
      manualRate: from.source === 'MANUAL',
    });
    if (problem === null) return v;
    this.errors.add(this.path(from.source === 'MANUAL' ? from.rateField : from.amountField), problem);
    return null;
  }

  rate(field: string, value: string | null | undefined): string | null {
    const v = optionalText(value);
    if (v === null) return null;
    return this.errors.check(this.path(field), decimalProblem(v, { min: 'positive', maxScale: RATE_SCALE })) ? v : null;
  }

  /** A shell-supplied provenance; anything else is a shell defect reported like a field error. */
  rateSource(field: string, value: unknown): ExchangeRateSource | null {
    if (value === null || value === undefined) return null;
    return this.errors.check(this.path(field), isExchangeRateSource(value) ? null : 'Must be HNB, ECB, CNB, MANUAL or null.')
      ? (value as ExchangeRateSource)
      : null;
  }

  count(field: string, value: number | null | undefined): number {
    if (value === null || value === undefined) return 0;
    this.errors.check(this.path(field), Number.isInteger(value) && value >= 0 ? null : 'Must be a whole number, 0 or more.');
    return value;
  }

  oneOf<T extends string>(field: string, value: string | null | undefined, allowed: readonly T[]): T | null {
    const v = optionalText(value);
    if (v === null) return this.missing(field);
    if ((allowed as readonly string[]).includes(v)) return v as T;
    this.errors.add(this.path(field), `Must be one of ${allowed.join(', ')}.`);
    return null;
  }

  private missing(field: string): null {
    this.errors.add(this.path(field), 'Required.');
    return null;
  }
}
