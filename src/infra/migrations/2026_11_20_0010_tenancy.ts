// Tenants, API keys and the access record of personal-data reads. Tenants and keys are operator
// configuration (set through the CLI / admin API), not partner-visible domain streams.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table tenants (
      id uuid primary key,
      name text not null,
      country text not null check (country in ('HR', 'SI', 'CZ', 'SK')),
      base_currency text not null,
      workflow jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table api_keys (
      id uuid primary key,
      tenant_id uuid not null references tenants(id),
      name text not null,
      prefix text not null unique,
      key_hash bytea not null,
      scopes text[] not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz,
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index api_keys_tenant on api_keys (tenant_id)`.execute(db);
  await sql`
    create table access_log (
      id bigint generated always as identity primary key,
      tenant_id uuid not null,
      api_key_id uuid not null,
      request_id text not null,
      method text not null,
      resource_type text not null,
      resource_id text,
      accessed_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index access_log_tenant_time on access_log (tenant_id, accessed_at)`.execute(db);
  await sql`
    create table idempotency_keys (
      tenant_id uuid not null,
      key text not null,
      method text not null,
      path text not null,
      request_hash text not null,
      status_code int,
      response_headers jsonb,
      response_body text,
      created_at timestamptz not null default now(),
      primary key (tenant_id, key)
    )`.execute(db);
  await sql`
    create table projection_checkpoints (
      name text primary key,
      position text,
      events_processed bigint not null default 0,
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['projection_checkpoints', 'idempotency_keys', 'access_log', 'api_keys', 'tenants']) {
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
  }
}
