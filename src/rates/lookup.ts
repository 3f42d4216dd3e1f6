// Which published rate applies on a date: the publication of that date, else the latest earlier
// one within FALLBACK_DAYS (weekends and holidays have none), else nothing (fallbackWindow and
// applicableRate in rate-date.ts hold the rule for every caller). The base currency
// itself always converts at 1 (source null: no provider was consulted).
import { sql } from 'kysely';
import type { Db } from '../infra/database.js';
import type { RateDirection } from '../money/decimal.js';
import { PROVIDERS, type ProviderCode } from './providers.js';
import { assertIsoDate, fallbackWindow } from './rate-date.js';
import type { ExchangeRate, FoundRate } from './types.js';

export interface RateQuery {
  readonly provider: ProviderCode;
  readonly currency: string;
  /** The rate date (advance payment date, expense date), yyyy-MM-dd. */
  readonly date: string;
}

/** Columns of a stored rate in the record shape; dates and numerics read as text on both drivers. */
export const RATE_RECORD_COLUMNS = [
  'source',
  sql<string>`rate_date::text`.as('date'),
  'currency',
  sql<string>`rate::text`.as('rate'),
  'units',
  'base_currency as baseCurrency',
  'direction',
] as const;

export function toExchangeRate(row: {
  source: string;
  date: string;
  currency: string;
  rate: string;
  units: number;
  baseCurrency: string;
  direction: string;
}): ExchangeRate {
  return {
    source: row.source as ProviderCode,
    date: row.date,
    currency: row.currency,
    rate: row.rate,
    units: Number(row.units),
    baseCurrency: row.baseCurrency,
    direction: row.direction as RateDirection,
  };
}

export async function findRate(db: Db, q: RateQuery): Promise<FoundRate | null> {
  assertIsoDate(q.date, 'rate date');
  const p = PROVIDERS[q.provider];
  const currency = q.currency.toUpperCase();
  if (currency === p.baseCurrency) {
    return { source: null, date: q.date, currency, rate: '1', units: 1, baseCurrency: p.baseCurrency, direction: p.direction };
  }
  const { earliest, latest } = fallbackWindow(q.date);
  const row = await db
    .selectFrom('exchange_rates')
    .select(RATE_RECORD_COLUMNS)
    .where('source', '=', q.provider)
    .where('currency', '=', currency)
    .where(sql<boolean>`rate_date <= ${latest}::date`)
    .where(sql<boolean>`rate_date >= ${earliest}::date`)
    .orderBy('rate_date', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : toExchangeRate(row);
}
