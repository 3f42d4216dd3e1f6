// Session 23: a per diem's representation names the zone it was computed in (`timeZone`), which a
// full replacement sends back. Each entry's ready-to-send text (rm_travel_entries.list_json) is
// made again on its next read from the stored document, now with the member (docs/decisions.md,
// "Old rows keep working"); the documents themselves are unchanged, so no rebuild is needed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update rm_travel_entries set list_json = null where list_json is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update rm_travel_entries set list_json = null where list_json is not null`.execute(db);
}
