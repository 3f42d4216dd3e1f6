// Read models of the organization resources (issue 10): departments, vehicles, cost centers. One
// row per stream (projections/document-projection.ts): the folded state in `doc`, the columns lists
// filter and sort on beside it, tenant_id first in every index.
import { sql, type Kysely } from 'kysely';

const TABLES = ['rm_cost_centers', 'rm_departments', 'rm_vehicles'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table rm_cost_centers (
      id uuid primary key,
      tenant_id uuid not null,
      revision int not null,
      code text not null,
      is_archived boolean not null,
      is_deleted boolean not null,
      created_at timestamptz not null,
      edited_at timestamptz not null,
      doc jsonb not null
    )`.execute(db);
  await sql`
    create table rm_departments (
      id uuid primary key,
      tenant_id uuid not null,
      revision int not null,
      parent_id uuid,
      default_cost_center_id uuid,
      is_archived boolean not null,
      is_deleted boolean not null,
      created_at timestamptz not null,
      edited_at timestamptz not null,
      doc jsonb not null
    )`.execute(db);
  await sql`create index rm_departments_parent on rm_departments (tenant_id, parent_id)`.execute(db);
  await sql`create index rm_departments_cost_center on rm_departments (tenant_id, default_cost_center_id)`.execute(db);
  await sql`
    create table rm_vehicles (
      id uuid primary key,
      tenant_id uuid not null,
      revision int not null,
      employee_id uuid,
      is_archived boolean not null,
      is_deleted boolean not null,
      created_at timestamptz not null,
      edited_at timestamptz not null,
      doc jsonb not null
    )`.execute(db);
  for (const t of TABLES) {
    await sql`create index ${sql.id(`${t}_sync`)} on ${sql.table(t)} (tenant_id, edited_at, id)`.execute(db);
    await sql`create index ${sql.id(`${t}_order`)} on ${sql.table(t)} (tenant_id, created_at, id)`.execute(db);
  }
  // Reference counts for RESOURCE_IN_USE: employees by department, entries by vehicle.
  await sql`create index rm_employees_department on rm_employees (tenant_id, ((doc->'employee'->>'departmentId')))`.execute(db);
  await sql`create index rm_travel_entries_vehicle on rm_travel_entries (tenant_id, ((doc->'entry'->>'vehicleId')))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists rm_travel_entries_vehicle`.execute(db);
  await sql`drop index if exists rm_employees_department`.execute(db);
  for (const t of TABLES) await sql`drop table if exists ${sql.table(t)}`.execute(db);
}
