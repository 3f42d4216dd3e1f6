// The exchange_rates table as Kysely sees it; src/infra/schema.ts lists it in Database.
import type { ColumnType } from 'kysely';

export interface ExchangeRatesTable {
  source: string;
  /** A `date` column: read it as `rate_date::text` (the drivers would turn it into a local Date). */
  rate_date: ColumnType<string, string, string>;
  currency: string;
  /** `numeric`, exact; both drivers hand it back as a string, never a float. */
  rate: ColumnType<string, string, string>;
  units: number;
  base_currency: string;
  direction: string;
  imported_at: ColumnType<Date, Date | undefined, Date>;
}
