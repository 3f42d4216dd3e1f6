// Read models of the pull API. Each row keeps the folded decider state (`doc`) next to the
// columns that lists filter and sort on, so a projection continues folding from the row alone.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table rm_employees (
      id uuid primary key,
      tenant_id uuid not null,
      revision int not null,
      status text not null,
      is_archived boolean not null,
      created_at timestamptz not null,
      edited_at timestamptz not null,
      doc jsonb not null
    )`.execute(db);
  await sql`create index rm_employees_sync on rm_employees (tenant_id, edited_at, id)`.execute(db);
  await sql`create index rm_employees_order on rm_employees (tenant_id, created_at, id)`.execute(db);
  await sql`
    create table rm_travel_entries (
      id uuid primary key,
      tenant_id uuid not null,
      revision int not null,
      entry_number text not null,
      status text not null,
      employee_id uuid not null,
      is_paid_out boolean not null,
      ready_for_payout boolean not null,
      created_at timestamptz not null,
      edited_at timestamptz not null,
      doc jsonb not null
    )`.execute(db);
  await sql`create index rm_travel_entries_sync on rm_travel_entries (tenant_id, edited_at, id)`.execute(db);
  await sql`create index rm_travel_entries_order on rm_travel_entries (tenant_id, created_at, id)`.execute(db);
  await sql`create index rm_travel_entries_status on rm_travel_entries (tenant_id, status, created_at, id)`.execute(db);
  await sql`create index rm_travel_entries_employee on rm_travel_entries (tenant_id, employee_id, created_at, id)`.execute(db);
  await sql`create index rm_travel_entries_payout on rm_travel_entries (tenant_id, created_at, id) where ready_for_payout`.execute(db);
  await sql`
    create table rm_payout_batches (
      id uuid primary key,
      tenant_id uuid not null,
      revision int not null,
      status text not null,
      created_at timestamptz not null,
      edited_at timestamptz not null,
      doc jsonb not null
    )`.execute(db);
  await sql`create index rm_payout_batches_order on rm_payout_batches (tenant_id, created_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['rm_payout_batches', 'rm_travel_entries', 'rm_employees']) await sql`drop table if exists ${sql.table(t)}`.execute(db);
}
