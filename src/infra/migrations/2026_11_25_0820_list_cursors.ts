// Cursors on every list (issue 11). Incremental sync (`updatedSince`) pages on a sync key the
// projection writes, never on edited_at: edited_at comes from the command's clock, and a command
// can commit (and be projected) after another with a later clock, so a client paging on edited_at
// could already be past it. `sync_seq` is drawn from one sequence in the projection's own write; a
// projection's batches are serialized by its checkpoint lock and applied in feed order, so every
// row written later carries a higher key and a client paging on (sync_seq, id) misses nothing.
// Existing rows get keys in edit order. Export write-back also adds the entries' `exports` column.
import { sql, type Kysely } from 'kysely';

const TABLES = ['rm_employees', 'rm_travel_entries', 'rm_payout_batches', 'rm_cost_centers', 'rm_departments', 'rm_vehicles'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence rm_sync_seq`.execute(db);
  for (const t of TABLES) {
    await sql`alter table ${sql.table(t)} add column sync_seq bigint`.execute(db);
    await sql`
      update ${sql.table(t)} r set sync_seq = k.seq
      from (select id, nextval('rm_sync_seq') as seq from (select id from ${sql.table(t)} order by edited_at, id) o) k
      where r.id = k.id`.execute(db);
    await sql`alter table ${sql.table(t)} alter column sync_seq set default nextval('rm_sync_seq')`.execute(db);
    await sql`alter table ${sql.table(t)} alter column sync_seq set not null`.execute(db);
    await sql`create index ${sql.id(`${t}_sync_seq`)} on ${sql.table(t)} (tenant_id, sync_seq, id)`.execute(db);
  }
  // Export write-back: the last status per system ({ "<system>": "posted" | "failed" }) for the
  // list's exportedTo/exportStatus filter. No index of its own: the question an ERP asks comes with
  // a status (approved and not yet posted), so the (tenant_id, status, ...) index narrows the rows
  // and this column is tested on them (a GIN index could not lead with tenant_id without btree_gin).
  await sql`alter table rm_travel_entries add column exports jsonb not null default '{}'::jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rm_travel_entries drop column if exists exports`.execute(db);
  for (const t of TABLES) await sql`alter table ${sql.table(t)} drop column if exists sync_seq`.execute(db);
  await sql`drop sequence if exists rm_sync_seq`.execute(db);
}
