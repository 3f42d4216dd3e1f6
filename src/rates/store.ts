// Writing parsed rates. An import is idempotent: the key (source, rate_date, currency) is upserted,
// so importing the same file twice, or a 90-day file that overlaps yesterday's, changes nothing.
// A provider's correction of a published figure replaces the old value.
import { sql } from 'kysely';
import type { Db } from '../infra/database.js';
import { PROVIDERS, type ProviderCode } from './providers.js';
import type { ParsedRate } from './types.js';

// 8 parameters per row; stays far below PostgreSQL's 65535 bind parameters per statement.
const CHUNK = 1000;

export interface UpsertResult {
  /** Rows in the input. */
  readonly written: number;
  /** Rows that were new or carried a different figure than the stored one. */
  readonly changed: number;
}

/** Stores one file's rates in one transaction: a file is imported entirely or not at all. */
export async function upsertRates(db: Db, provider: ProviderCode, rates: readonly ParsedRate[]): Promise<UpsertResult> {
  const p = PROVIDERS[provider];
  let changed = 0;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rates.length; i += CHUNK) {
      const rows = rates.slice(i, i + CHUNK).map((r) => ({
        source: provider,
        rate_date: r.date,
        currency: r.currency,
        rate: r.rate,
        units: r.units,
        base_currency: p.baseCurrency,
        direction: p.direction,
      }));
      const result = await trx
        .insertInto('exchange_rates')
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(['source', 'rate_date', 'currency'])
            .doUpdateSet((eb) => ({
              rate: eb.ref('excluded.rate'),
              units: eb.ref('excluded.units'),
              base_currency: eb.ref('excluded.base_currency'),
              direction: eb.ref('excluded.direction'),
              imported_at: sql<Date>`now()`,
            }))
            // An unchanged figure is left alone, so imported_at tells when the value arrived.
            .where(sql<boolean>`(exchange_rates.rate, exchange_rates.units) is distinct from (excluded.rate, excluded.units)`),
        )
        .returning('currency')
        .execute();
      changed += result.length;
    }
  });
  return { written: rates.length, changed };
}
