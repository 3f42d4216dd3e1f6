// The reference list behind GET /api/v1/reference/exchange-rates?date=&currency=: every currency
// of the tenant's provider as it applies on the date, i.e. each currency's latest publication on
// or before the date within FALLBACK_DAYS, the same rate findRate would apply.
import { sql } from 'kysely';
import type { Db } from '../infra/database.js';
import type { ProviderCode } from './providers.js';
import { RATE_RECORD_COLUMNS, toExchangeRate } from './lookup.js';
import { assertIsoDate, fallbackWindow } from './rate-date.js';
import type { ExchangeRate } from './types.js';

export interface ListRatesQuery {
  readonly provider: ProviderCode;
  /** yyyy-MM-dd */
  readonly date: string;
  /** ISO 4217; absent: all currencies. */
  readonly currency?: string | undefined;
}

/** Records `{ source, date, currency, rate, units, baseCurrency, direction }`, ordered by currency. */
export async function listRates(db: Db, q: ListRatesQuery): Promise<ExchangeRate[]> {
  assertIsoDate(q.date, 'date');
  const span = fallbackWindow(q.date);
  let query = db
    .selectFrom('exchange_rates')
    .select(RATE_RECORD_COLUMNS)
    .distinctOn('currency')
    .where('source', '=', q.provider)
    .where(sql<boolean>`rate_date <= ${span.latest}::date`)
    .where(sql<boolean>`rate_date >= ${span.earliest}::date`);
  if (q.currency !== undefined) query = query.where('currency', '=', q.currency.toUpperCase());
  const rows = await query.orderBy('currency').orderBy('rate_date', 'desc').execute();
  return rows.map(toExchangeRate);
}
