// The PostgreSQL event store (research note eventsourcing.md 4.5). The global feed is ordered by
// (tx_id, global_position) and read only below pg_snapshot_xmin, so an event whose transaction
// commits late is never skipped by a reader that already moved past its global_position.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table es_streams (
      stream_id text primary key,
      revision bigint not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table es_events (
      global_position bigint generated always as identity primary key,
      tx_id xid8 not null default pg_current_xact_id(),
      event_id uuid not null unique,
      stream_id text not null,
      category text not null,
      revision bigint not null,
      type text not null,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default now(),
      unique (stream_id, revision)
    )`.execute(db);
  await sql`create index es_events_feed on es_events (tx_id, global_position)`.execute(db);
  await sql`create index es_events_type on es_events (type, tx_id, global_position)`.execute(db);
  await sql`create index es_events_category on es_events (category, tx_id, global_position)`.execute(db);
  await sql`
    create table es_consumer_groups (
      group_name text primary key,
      filter jsonb not null default '{}',
      max_retry_count int not null,
      checkpoint text,
      owner text,
      lease_until timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table es_parked (
      group_name text not null references es_consumer_groups(group_name) on delete cascade,
      event_id uuid not null,
      global_position bigint not null,
      reason text not null,
      retry_count int not null,
      replay_requested boolean not null default false,
      parked_at timestamptz not null default now(),
      primary key (group_name, event_id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['es_parked', 'es_consumer_groups', 'es_events', 'es_streams']) {
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
  }
}
