// What the per-diem engine takes and answers. Money is a decimal string, hours and units too
// (the shell turns them into JSON numbers); instants are ISO 8601 UTC; wall-clock times are the
// caller's (`yyyy-MM-ddTHH:mm[:ss]`, no offset).
import type { PerDiemLaw } from './law.js';

/** One point of an itinerary: from here on the traveller is in `countryCode`. */
export interface Stop {
  countryCode: string;
  /** Local wall-clock time in that country. */
  time: string;
  placeId?: string | null;
  /** IANA zone; needed only where the country has several. */
  timeZone?: string | null;
}

/** Provided meals of one row, keyed by the row's `(countryCode, departureTime)`. */
export interface RowMeals {
  countryCode: string;
  departureTime: string;
  breakfastsProvided?: number | null;
  lunchesProvided?: number | null;
  dinnersProvided?: number | null;
}

export interface MealCount {
  breakfasts: number;
  lunches: number;
  dinners: number;
}

/** The zones of a country (the shell's data): its default, or null where the caller must name one. */
export interface CountryZones {
  readonly defaultZone: string | null;
  readonly zones: readonly string[];
}

/** Exchange rates the shell looked up, with the provider's fallback to an earlier publication. */
export interface FxRate {
  readonly rate: string;
  readonly units: number;
  readonly direction: 'ForeignPerBase' | 'BasePerForeign';
  /** The publication date of the list the rate is from. */
  readonly date: string;
  readonly source: string;
}

export interface RateBook {
  /** The rate that applies on `date` (yyyy-MM-dd), or null when the provider publishes none. */
  find(currency: string, date: string): FxRate | null;
}

export interface PerDiemRequest {
  law: PerDiemLaw;
  stops: readonly Stop[];
  meals?: readonly RowMeals[] | null;
  /** CZ: the exchange-rate date (the trip start when absent). */
  advancePaymentDate?: string | null;
}

export interface PerDiemRow {
  /** Index of the stop that starts the row's leg. */
  stopIndex: number;
  /** The IANA zone of that stop, in which departureTime is read (arrivalTime is in the next stop's). */
  timeZone: string;
  countryCode: string;
  departureTime: string;
  arrivalTime: string;
  departureTimeUtc: string;
  arrivalTimeUtc: string;
  hours: string;
  units: string;
  rate: string;
  currencyCode: string;
  breakfastsProvided: number;
  lunchesProvided: number;
  dinnersProvided: number;
  mealsProvided: number;
  mealReduction: string;
  amount: string;
  exchangeRate: string | null;
  exchangeRateDate: string | null;
  exchangeRateSource: string | null;
  amountInBaseCurrency: string;
  rule: string;
}

export interface PerDiemResult {
  law: PerDiemLaw;
  baseCurrency: string;
  perDiems: PerDiemRow[];
  totals: { byCurrency: Record<string, string>; inBaseCurrency: string };
  /** Which foreign-rate table versions decided the rows (`shipped` or an import's revision). */
  rateTables: { law: PerDiemLaw; revision: number | null };
  /** Points a reviewer should look at; the rows are computed regardless. */
  notices: PerDiemNotice[];
}

/** A point of law the engine computes through but cannot decide (the research names no rule). */
export interface PerDiemNotice {
  code: 'TRIP_OVER_30_DAYS';
  detail: string;
}
