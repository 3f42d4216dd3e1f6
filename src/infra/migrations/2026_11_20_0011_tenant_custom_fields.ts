// The tenant's custom-field definitions for employees ({ key, type, required }[]).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants add column custom_fields jsonb not null default '[]'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants drop column custom_fields`.execute(db);
}
