// Exchange rates for the per-diem engine: one read of the provider's published rates over the
// itinerary's dates (plus the fallback window), then the same rule as every other conversion
// (applicableRate, src/rates/rate-date.ts): the list of the date, else the latest earlier one
// within FALLBACK_DAYS. Each (currency, date) is looked up once per book.
import { sql } from 'kysely';
import type { FxRate, RateBook } from '../../domain/per-diems/index.js';
import type { Db } from '../../infra/database.js';
import { RATE_RECORD_COLUMNS, toExchangeRate } from '../../rates/lookup.js';
import type { Provider } from '../../rates/providers.js';
import { applicableRate, fallbackWindow } from '../../rates/rate-date.js';

export async function loadRateBook(db: Db, provider: Provider, from: string, to: string): Promise<RateBook> {
  const rows = await db
    .selectFrom('exchange_rates')
    .select(RATE_RECORD_COLUMNS)
    .where('source', '=', provider.code)
    .where(sql<boolean>`rate_date >= ${fallbackWindow(from).earliest}::date`)
    .where(sql<boolean>`rate_date <= ${to}::date`)
    .orderBy('rate_date', 'desc')
    .execute();
  const byCurrency = new Map<string, FxRate[]>();
  for (const row of rows) {
    const r = toExchangeRate(row);
    const list = byCurrency.get(r.currency) ?? [];
    list.push({ rate: r.rate, units: r.units, direction: r.direction, date: r.date, source: r.source });
    byCurrency.set(r.currency, list);
  }
  const found = new Map<string, FxRate | null>();
  return {
    find(currency, date) {
      const key = `${currency} ${date}`;
      let rate = found.get(key);
      if (rate === undefined) {
        rate = applicableRate(byCurrency.get(currency) ?? [], date);
        if (found.size >= 10_000) found.clear();
        found.set(key, rate);
      }
      return rate;
    },
  };
}

/**
 * Rate books remembered for a second per provider and date span: a calculator under load reads
 * the same lists again and again. A correction of a published rate shows within a second; a rate
 * imported after a miss shows at once (the calculator asks again with `fresh`).
 */
export class RateBooks {
  private readonly books = new Map<string, { at: number; book: Promise<RateBook> }>();

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs = 1000,
    private readonly maxEntries = 1000,
  ) {}

  get(provider: Provider, from: string, to: string, fresh: boolean): Promise<RateBook> {
    const key = `${provider.code} ${from} ${to}`;
    const now = Date.now();
    const hit = this.books.get(key);
    if (!fresh && hit !== undefined && now - hit.at < this.maxAgeMs) return hit.book;
    if (this.books.size >= this.maxEntries) this.books.clear();
    const book = loadRateBook(this.db, provider, from, to);
    this.books.set(key, { at: now, book });
    book.catch(() => this.books.delete(key));
    return book;
  }
}
