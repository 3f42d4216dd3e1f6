// The codes and names an entry shows for its vehicle and cost centers, kept by the travel-entries
// projection itself (projections/travel-entries/reference-changes.ts), in the transaction that
// moves the entries naming a changed record in an incremental sync. Read from the vehicles' and
// cost centers' own tables before, which their projections write in transactions of their own:
// an entry could move in a sync before its new name was readable (a review, session 25).
// Filled here from those tables as they stand; the projection keeps it from then on, and a rebuild
// of travel-entries makes it again from the log.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table rm_entry_reference_names (
    tenant_id uuid not null,
    kind text not null,
    id uuid not null,
    code text not null,
    name text,
    model text,
    primary key (tenant_id, kind, id)
  )`.execute(db);
  await sql`insert into rm_entry_reference_names (tenant_id, kind, id, code, name, model)
    select tenant_id, 'vehicle', id, doc->'vehicle'->>'registrationNumber', doc->'vehicle'->>'make', doc->'vehicle'->>'model'
    from rm_vehicles where not is_deleted`.execute(db);
  await sql`insert into rm_entry_reference_names (tenant_id, kind, id, code, name, model)
    select tenant_id, 'costCenter', id, doc->'costCenter'->>'code', doc->'costCenter'->>'name', null
    from rm_cost_centers where not is_deleted`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists rm_entry_reference_names`.execute(db);
}
