// What a law's rules read while they build rows: amounts in force on a date, foreign rates, and
// exchange rates for comparing rates in two currencies. Missing amounts or rates are collected
// keyed by the stop that needs them, and the engine refuses the itinerary with all of them.
import { messagesAt } from '../shared/field-errors.js';
import { domesticAmountsOn, type DomesticAmounts } from './domestic-amounts.js';
import type { PerDiemLaw } from './law.js';
import type { FxRate, RateBook } from './model.js';
import type { Piece } from './pieces.js';
import { foreignRateOn, type ForeignRate, type RateTables } from './rate-table.js';
import { div, fromDecimal, mul, ratio, type Ratio } from './ratio.js';

/** The amount and the rate of a row before meal cuts; the engine rounds and converts. */
export interface RowDraft {
  readonly piece: Piece;
  readonly units: Ratio;
  readonly rate: Ratio;
  readonly currency: string;
  /** Units times rate (or the band amount). */
  readonly gross: Ratio;
  /** Meal cuts, never more than gross. */
  readonly reduction: Ratio;
  /** SK stravné is rounded up to the cent; everything else half up. */
  readonly rounding: 'halfUp' | 'up';
  readonly rule: string;
}

export class LawContext {
  /** `stops[i].countryCode` -> why no per-diem amount could be found. */
  readonly rateErrors: Record<string, string[]> = {};
  /** `stops[i].countryCode` -> why no exchange rate could be found. */
  readonly fxErrors: Record<string, string[]> = {};

  constructor(
    readonly law: PerDiemLaw,
    readonly baseCurrency: string,
    readonly tables: RateTables,
    private readonly book: RateBook,
  ) {}

  private note(errors: Record<string, string[]>, stopIndex: number, message: string): void {
    const list = messagesAt(errors, `stops[${stopIndex}].countryCode`);
    if (!list.includes(message)) list.push(message);
  }

  domestic(date: string, stopIndex: number): DomesticAmounts | null {
    const found = domesticAmountsOn(this.law, date);
    if (found === null) this.note(this.rateErrors, stopIndex, `No ${this.law} domestic per-diem amounts are known for ${date}.`);
    return found;
  }

  foreign(countryCode: string, date: string, stopIndex: number): ForeignRate | null {
    const found = foreignRateOn(this.tables, this.law, countryCode, date);
    if (found === null) {
      this.note(
        this.rateErrors,
        stopIndex,
        `The ${this.law} per-diem rate table in force on ${date} has no rate for ${countryCode}; an operator imports the official table (per-diem-rates import).`,
      );
    }
    return found;
  }

  fx(currency: string, date: string, stopIndex: number): FxRate | null | 'base' {
    if (currency === this.baseCurrency) return 'base';
    const found = this.book.find(currency, date);
    if (found === null) this.note(this.fxErrors, stopIndex, `No ${currency} exchange rate is published for ${date} or the days before.`);
    return found;
  }

  /** An amount in the base currency, exact (for comparing rates); null when no rate is known. */
  inBase(amount: Ratio, currency: string, date: string, stopIndex: number): Ratio | null {
    const fx = this.fx(currency, date, stopIndex);
    if (fx === 'base') return amount;
    if (fx === null) return null;
    return convertExact(amount, fx);
  }
}

export function convertExact(amount: Ratio, fx: FxRate): Ratio {
  const rate = fromDecimal(fx.rate);
  const units = ratio(fx.units);
  return fx.direction === 'ForeignPerBase' ? div(mul(amount, units), rate) : div(mul(amount, rate), units);
}
