// The company's enabled countries and currencies (ISO codes). Null: all are enabled (the default).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants add column enabled_countries text[], add column enabled_currencies text[]`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants drop column enabled_countries, drop column enabled_currencies`.execute(db);
}
