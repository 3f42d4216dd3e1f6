// Test data for the per-diem engine, built independently of the engine's shell: the foreign rate
// tables straight from the research CSV (../shared/data/per-diem-rates-foreign.csv; the repository's
// copy when that is absent), fixed exchange-rate books per central bank, and a small zone map.
import { existsSync, readFileSync } from 'node:fs';
import type { Test } from 'tap';
import { DomainError } from '../../../src/domain/errors.js';
import {
  calculatePerDiems,
  type CountryZones,
  type ForeignRateRow,
  type FxRate,
  type PerDiemLaw,
  type PerDiemResult,
  type PerDiemRow,
  type RateBook,
  type RateTables,
  type RateTableVersion,
  type RowMeals,
  type Stop,
} from '../../../src/domain/per-diems/index.js';

// ---------------------------------------------------------------------------------------------
// Zones

const ZONES: Record<string, CountryZones> = {
  HR: { defaultZone: 'Europe/Zagreb', zones: ['Europe/Zagreb'] },
  SI: { defaultZone: 'Europe/Ljubljana', zones: ['Europe/Ljubljana'] },
  CZ: { defaultZone: 'Europe/Prague', zones: ['Europe/Prague'] },
  SK: { defaultZone: 'Europe/Bratislava', zones: ['Europe/Bratislava'] },
  AT: { defaultZone: 'Europe/Vienna', zones: ['Europe/Vienna'] },
  DE: { defaultZone: 'Europe/Berlin', zones: ['Europe/Berlin', 'Europe/Busingen'] },
  IT: { defaultZone: 'Europe/Rome', zones: ['Europe/Rome'] },
  HU: { defaultZone: 'Europe/Budapest', zones: ['Europe/Budapest'] },
  PL: { defaultZone: 'Europe/Warsaw', zones: ['Europe/Warsaw'] },
  BA: { defaultZone: 'Europe/Sarajevo', zones: ['Europe/Sarajevo'] },
  BE: { defaultZone: 'Europe/Brussels', zones: ['Europe/Brussels'] },
  BG: { defaultZone: 'Europe/Sofia', zones: ['Europe/Sofia'] },
  FR: { defaultZone: 'Europe/Paris', zones: ['Europe/Paris'] },
  NL: { defaultZone: 'Europe/Amsterdam', zones: ['Europe/Amsterdam'] },
  DK: { defaultZone: 'Europe/Copenhagen', zones: ['Europe/Copenhagen'] },
  FI: { defaultZone: 'Europe/Helsinki', zones: ['Europe/Helsinki'] },
  IE: { defaultZone: 'Europe/Dublin', zones: ['Europe/Dublin'] },
  AD: { defaultZone: 'Europe/Andorra', zones: ['Europe/Andorra'] },
  AM: { defaultZone: 'Asia/Yerevan', zones: ['Asia/Yerevan'] },
  CH: { defaultZone: 'Europe/Zurich', zones: ['Europe/Zurich'] },
  GB: { defaultZone: 'Europe/London', zones: ['Europe/London'] },
  JP: { defaultZone: 'Asia/Tokyo', zones: ['Asia/Tokyo'] },
  AR: { defaultZone: 'America/Argentina/Buenos_Aires', zones: ['America/Argentina/Buenos_Aires'] },
  US: { defaultZone: null, zones: ['America/New_York', 'America/Chicago', 'America/Los_Angeles'] },
};

export const zonesOf = (countryCode: string): CountryZones | null => ZONES[countryCode] ?? null;

// ---------------------------------------------------------------------------------------------
// Foreign rate tables

const SHARED_CSV = '/work/shared/data/per-diem-rates-foreign.csv';
const REPO_CSV = new URL('../../../src/reference-data/per-diem-rates-foreign.csv', import.meta.url);

let parsed: RateTableVersion[] | null = null;

/** The research CSV as table versions: one per law and validFrom, none complete (the data's README, Gaps). */
export function csvVersions(): RateTableVersion[] {
  parsed ??= parseCsv();
  return [...parsed];
}

function parseCsv(): RateTableVersion[] {
  const text = readFileSync(existsSync(SHARED_CSV) ? SHARED_CSV : REPO_CSV, 'utf8');
  const [header, ...lines] = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const columns = header!.split(',');
  const groups = new Map<string, { law: PerDiemLaw; validFrom: string; validTo: string | null; rows: Map<string, ForeignRateRow> }>();
  for (const line of lines) {
    const cells = line.split(',');
    const get = (name: string): string => cells[columns.indexOf(name)] ?? '';
    const law = get('law') as PerDiemLaw;
    const key = `${law}|${get('validFrom')}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { law, validFrom: get('validFrom'), validTo: get('validTo') === '' ? null : get('validTo'), rows: new Map() };
      groups.set(key, group);
    }
    group.rows.set(get('countryCode'), {
      countryCode: get('countryCode'),
      countryName: get('countryName'),
      rate: get('rate'),
      currency: get('currency'),
      source: get('source'),
      origin: 'shipped',
    });
  }
  return [...groups.values()].map((g) => ({ ...g, complete: false }));
}

/** A hand-made version (complete: its `*` row applies to countries it does not list). */
export function version(
  law: PerDiemLaw,
  validFrom: string,
  rows: Record<string, [rate: string, currency: string]>,
  options: { complete?: boolean; validTo?: string | null } = {},
): RateTableVersion {
  return {
    law,
    validFrom,
    validTo: options.validTo ?? null,
    complete: options.complete ?? true,
    rows: new Map(
      Object.entries(rows).map(([countryCode, [rate, currency]]) => [
        countryCode,
        { countryCode, countryName: countryCode, rate, currency, source: 'test', origin: 'test' },
      ]),
    ),
  };
}

export const tablesOf = (versions: RateTableVersion[]): RateTables => ({ versions, revisions: {} });

/** The CSV tables (partial: no `*` row ever applies). */
export const csvTables = (): RateTables => tablesOf(csvVersions());

// ---------------------------------------------------------------------------------------------
// Exchange-rate books

export interface RecordingBook extends RateBook {
  /** Every (currency, date) the engine asked for. */
  readonly asked: { currency: string; date: string }[];
}

/**
 * A book with rates by publication date: `find` answers the latest publication on or before the date
 * (a provider's fallback). `byDate` maps a date to currency -> rate.
 */
export function datedBook(
  source: string,
  direction: FxRate['direction'],
  byDate: Record<string, Record<string, string>>,
  units: Record<string, number> = {},
): RecordingBook {
  const dates = Object.keys(byDate).sort();
  const asked: { currency: string; date: string }[] = [];
  return {
    asked,
    find(currency: string, date: string): FxRate | null {
      asked.push({ currency, date });
      const published = dates.filter((d) => d <= date && byDate[d]![currency] !== undefined);
      const on = published[published.length - 1];
      if (on === undefined) return null;
      return { rate: byDate[on]![currency]!, units: units[currency] ?? 1, direction, date: on, source };
    },
  };
}

/** The same rates on every date since 2000 (so the date asked never changes the amount). */
export const fixedBook = (source: string, direction: FxRate['direction'], rates: Record<string, string>): RecordingBook =>
  datedBook(source, direction, { '2000-01-01': rates });

/** HNB (= ECB, foreign units per EUR). */
export const hnbBook = (): RecordingBook => fixedBook('HNB', 'ForeignPerBase', { USD: '1.10', GBP: '0.85', CZK: '25.00' });
/** ECB via Banka Slovenije / NBS (foreign units per EUR). */
export const ecbBook = (): RecordingBook =>
  fixedBook('ECB', 'ForeignPerBase', { USD: '1.10', GBP: '0.85', CZK: '25.00', DKK: '7.46', SEK: '11.00', CHF: '0.95' });
/** CNB (CZK per foreign unit). */
export const cnbBook = (): RecordingBook => fixedBook('CNB', 'BasePerForeign', { EUR: '25.00', USD: '23.00', GBP: '29.00', CHF: '26.00' });

export const bookFor = (law: PerDiemLaw): RecordingBook => (law === 'HR' ? hnbBook() : law === 'CZ' ? cnbBook() : ecbBook());

// ---------------------------------------------------------------------------------------------
// Running the engine

/** A stop as `[countryCode, wall time]` or `[countryCode, wall time, zone]`. */
export type S = readonly [string, string] | readonly [string, string, string];

export const stops = (list: readonly S[]): Stop[] =>
  list.map(([countryCode, time, timeZone]) => (timeZone === undefined ? { countryCode, time } : { countryCode, time, timeZone }));

export interface RunOptions {
  meals?: RowMeals[];
  advancePaymentDate?: string;
  tables?: RateTables;
  book?: RateBook;
}

export function calc(law: PerDiemLaw, list: readonly S[], options: RunOptions = {}): PerDiemResult {
  return calculatePerDiems(
    { law, stops: stops(list), meals: options.meals, advancePaymentDate: options.advancePaymentDate },
    { tables: options.tables ?? csvTables(), book: options.book ?? bookFor(law), zonesOf },
  );
}

/** Provided meals of one row. */
export const meal = (countryCode: string, departureTime: string, b = 0, l = 0, d = 0): RowMeals => ({
  countryCode,
  departureTime,
  breakfastsProvided: b,
  lunchesProvided: l,
  dinnersProvided: d,
});

/** Rows that carry an amount (CZ and SK put a day's amount on one row). */
export const paid = (r: PerDiemResult): PerDiemRow[] => r.perDiems.filter((row) => Number(row.amount) !== 0);

/** The sum of the rows' units per country (a decimal string with up to 4 places). */
export function unitsBy(r: PerDiemResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of r.perDiems) out[row.countryCode] = Math.round(((out[row.countryCode] ?? 0) + Number(row.units)) * 10000) / 10000;
  for (const k of Object.keys(out)) if (out[k] === 0) delete out[k];
  return out;
}

/** Sum of amounts in one currency, as a 2-decimal string. */
export const totalIn = (r: PerDiemResult, currency: string): string => r.totals.byCurrency[currency] ?? '0.00';

/** Asserts that `fn` throws a DomainError with the code and exactly these field keys. */
export function throwsDomain(t: Test, fn: () => unknown, code: string, keys?: string[], message?: string): DomainError | null {
  try {
    fn();
  } catch (e) {
    t.ok(e instanceof DomainError, `${message ?? code}: a DomainError`);
    if (!(e instanceof DomainError)) return null;
    t.equal(e.code, code, `${message ?? code}: code`);
    if (keys !== undefined) t.strictSame(Object.keys(e.errors ?? {}).sort(), [...keys].sort(), `${message ?? code}: keys`);
    return e;
  }
  t.fail(`${message ?? code}: expected ${code}, nothing thrown`);
  return null;
}

/** A wall time `hours` (may be fractional, minute precision) after a naive wall time (no DST). */
export function wallPlus(wall: string, hours: number): string {
  const ms = Date.parse(`${wall}:00Z`) + Math.round(hours * 60) * 60_000;
  return new Date(ms).toISOString().slice(0, 16);
}

/** Hours and minutes as fractional hours: hm(8, 1) = 8 h 01 min. */
export const hm = (h: number, m = 0): number => h + m / 60;
