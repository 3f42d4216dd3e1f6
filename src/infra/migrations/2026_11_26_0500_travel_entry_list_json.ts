// Issue 13: the list of travel entries serves stored bytes. The projection keeps each row's partner
// representation as ready-to-send JSON text (`list_json`, see projections/travel-entries/list-json.ts),
// with the parts read at request time (current vehicle and cost-center names) left as slots, so a
// list page is spliced from text: no jsonb parsed into objects, nothing re-serialised.
// Rows written before this migration have no text (null): the list builds theirs from `doc` on each
// read (the same function the projection uses) until the row is next written or the projection is
// rebuilt (`npm run cli -- projections rebuild travel-entries`), so nothing here needs computing in SQL.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rm_travel_entries add column list_json text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rm_travel_entries drop column if exists list_json`.execute(db);
}
