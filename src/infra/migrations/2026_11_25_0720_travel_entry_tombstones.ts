// Deleted travel entries (TravelEntryDeleted) stay in rm_travel_entries as tombstones: deleted_at is
// set, the default list leaves them out and `includeDeleted=true` (the incremental sync) shows them.
// Existing rows are entries that were never deleted, so null is right for all of them: no rebuild.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rm_travel_entries add column deleted_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rm_travel_entries drop column deleted_at`.execute(db);
}
