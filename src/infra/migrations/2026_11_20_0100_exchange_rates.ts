// Central-bank exchange rates (src/rates). One row per provider, publication date and currency;
// re-importing a file upserts onto the same key. The rate is `numeric` so the published digits are
// kept exactly (never a float).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table exchange_rates (
      source text not null check (source in ('HNB', 'ECB', 'CNB')),
      rate_date date not null,
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      rate numeric not null check (rate > 0),
      units int not null check (units > 0),
      base_currency text not null check (base_currency ~ '^[A-Z]{3}$'),
      direction text not null check (direction in ('ForeignPerBase', 'BasePerForeign')),
      imported_at timestamptz not null default now(),
      unique (source, rate_date, currency)
    )`.execute(db);
  // findRate: the latest publication of one currency on or before a date.
  await sql`create index exchange_rates_lookup on exchange_rates (source, currency, rate_date desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists exchange_rates`.execute(db);
}
