// The list's ready-to-send texts (rm_travel_entries.list_json) are stamped with the version of
// the presentation that made them (LIST_TEXT_VERSION, projections/travel-entries/list-json.ts). A
// release that changes an entry's representation raises the version instead of clearing every
// text in a migration: a read serves a text only of its own version and makes the others again,
// and a process never overwrites a text of a newer version, so processes of two releases running
// side by side in a rolling deploy each answer in their own shape (docs/decisions.md, session 24).
// Texts stored before this column are unversioned: the next read makes them again.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rm_travel_entries add column list_json_version integer`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rm_travel_entries drop column if exists list_json_version`.execute(db);
}
