// Issue 13: the list of travel entries serves stored bytes. Each row can keep its partner
// representation as ready-to-send JSON text (`list_json`, see projections/travel-entries/list-json.ts),
// with the parts read at request time (current vehicle and cost-center names) left as slots, so a
// list page is spliced from text: no jsonb parsed into objects, nothing re-serialised.
// The text is made lazily: the projection clears it on every write of a row, and the first list read
// that meets a row without text makes it from `doc` and stores it (list-json-fill.ts). Rows written
// before this migration are such rows too, so nothing here needs computing in SQL.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rm_travel_entries add column list_json text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rm_travel_entries drop column if exists list_json`.execute(db);
}
