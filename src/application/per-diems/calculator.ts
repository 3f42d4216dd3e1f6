// The per-diem engine with its data: the tenant's law, the rate tables in force (shipped plus
// imported), the provider's exchange rates over the itinerary's dates and the countries' zones.
// Stateless: nothing is stored. One instance per process (it holds the zone directory).
import {
  calculatePerDiems,
  type PerDiemLaw,
  type PerDiemRequest,
  type PerDiemResult,
  type RateBook,
  type RateTables,
  type ZoneDirectory,
} from '../../domain/per-diems/index.js';
import { isDate } from '../../domain/shared/dates.js';
import type { Db } from '../../infra/database.js';
import { providerForCountry } from '../../rates/providers.js';
import { resolveConversion, type Conversion } from '../../rates/conversion.js';
import { RateBooks } from './rate-book.js';
import { DomainError } from '../../domain/errors.js';
import { countryZones } from './zones.js';

export interface RateTablesSource {
  current(): Promise<RateTables>;
  invalidate(): void;
}

export type ItineraryInput = Omit<PerDiemRequest, 'law'>;

export class PerDiemCalculator {
  readonly zonesOf: ZoneDirectory = countryZones();
  private readonly books: RateBooks;

  constructor(
    readonly db: Db,
    readonly tables: RateTablesSource,
  ) {
    this.books = new RateBooks(db);
  }

  /**
   * `manualRate` (a per diem's manualExchangeRate, in the provider's direction) converts a currency
   * the provider publishes no rate for, as everywhere else (src/rates/conversion.ts).
   */
  async calculate(law: PerDiemLaw, input: ItineraryInput, manualRate?: string | null): Promise<PerDiemResult> {
    const [from, to] = dateSpan(input);
    const provider = providerForCountry(law);
    const run = async (fresh: boolean): Promise<PerDiemResult> => {
      const [tables, published] = await Promise.all([this.tables.current(), this.books.get(provider, from, to, fresh)]);
      const book: RateBook =
        manualRate === null || manualRate === undefined
          ? published
          : {
              find: (currency, date) =>
                published.find(currency, date) ?? { rate: manualRate, units: 1, direction: provider.direction, date, source: 'MANUAL' },
            };
      return calculatePerDiems({ ...input, law }, { tables, book, zonesOf: this.zonesOf });
    };
    try {
      return await run(false);
    } catch (err) {
      // A rate missing from a remembered book may have been imported since: ask the database once.
      if (err instanceof DomainError && err.code === 'EXCHANGE_RATE_UNAVAILABLE') return run(true);
      throw err;
    }
  }
}

/**
 * An amount of a per-diem row (an override) in the base currency at the law's date, with the usual
 * rule for a manual rate (src/rates/conversion.ts); a refusal is a DomainError keyed by `field`.
 */
export async function convertForLaw(
  calc: PerDiemCalculator,
  law: PerDiemLaw,
  req: { currency: string; date: string; manualRate: string | null; field: string },
): Promise<Conversion> {
  return resolveConversion(calc.db, { country: law, currency: req.currency, date: req.date, manualRate: req.manualRate, field: req.field });
}

/**
 * The dates an itinerary may need rates for: its stops' days, the first of the first month (SK)
 * and the advance payment date (CZ). Malformed times are left to the engine, which names them.
 */
function dateSpan(input: ItineraryInput): [string, string] {
  const dates: string[] = [];
  if (Array.isArray(input.stops)) for (const s of input.stops) if (typeof s?.time === 'string') dates.push(s.time.slice(0, 10));
  if (typeof input.advancePaymentDate === 'string') dates.push(input.advancePaymentDate);
  // The earliest and latest real dates (one pass; no sort).
  let first = '';
  let last = '';
  for (const date of dates) {
    if (!isDate(date)) continue;
    if (first === '' || date < first) first = date;
    if (last === '' || date > last) last = date;
  }
  if (first === '') return ['1970-01-01', '1970-01-01'];
  return [`${first.slice(0, 7)}-01`, last];
}
