// Webhook subscriptions, the delivery outbox and the attempt log (issue 4).
//
// One delivery row per (subscription, catalog event): the unique constraint is what makes the
// catalog projector idempotent when the event store redelivers an event. The body is stored as
// bytes once, when the event is projected, and every attempt sends exactly those bytes.
// `next_attempt_at` is both the schedule and the lease: a claim moves it past the attempt timeout,
// so a worker that dies mid-attempt simply lets the row fall due again.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_subscriptions (
      id uuid primary key,
      tenant_id uuid not null,
      url text not null,
      event_types text[] not null,
      secret_sealed text not null,
      previous_secret_sealed text,
      previous_secret_expires_at timestamptz,
      is_active boolean not null default true,
      disabled_at timestamptz,
      disabled_reason text,
      consecutive_exhausted int not null default 0,
      create_idempotency_key text,
      create_request_hash text,
      rotation_idempotency_key text,
      rotated_at timestamptz,
      created_at timestamptz not null default now(),
      deleted_at timestamptz
    )`.execute(db);
  await sql`create index webhook_subscriptions_tenant on webhook_subscriptions (tenant_id, created_at, id) where deleted_at is null`.execute(
    db,
  );
  await sql`create unique index webhook_subscriptions_create_key on webhook_subscriptions (tenant_id, create_idempotency_key)
    where create_idempotency_key is not null`.execute(db);

  await sql`
    create table webhook_deliveries (
      id uuid primary key,
      subscription_id uuid not null references webhook_subscriptions(id) on delete cascade,
      tenant_id uuid not null,
      event_id uuid not null,
      source_event_id uuid not null,
      event_type text not null,
      payload bytea not null,
      status text not null check (status in ('Pending', 'Succeeded', 'Failed', 'Exhausted', 'Cancelled')),
      attempt_count int not null default 0,
      next_attempt_at timestamptz,
      lease_token uuid,
      single_attempt boolean not null default false,
      last_attempt_at timestamptz,
      last_response_status int,
      last_response_body text,
      last_failure_class text,
      created_at timestamptz not null default now(),
      unique (subscription_id, event_id)
    )`.execute(db);
  // The dispatcher's claim scans only Pending rows in due order, so retries waiting hours ahead cost nothing.
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'Pending'`.execute(db);
  await sql`create index webhook_deliveries_log on webhook_deliveries (subscription_id, created_at desc, id desc)`.execute(db);
  await sql`create index webhook_deliveries_age on webhook_deliveries (created_at)`.execute(db);

  await sql`
    create table webhook_delivery_attempts (
      id bigint generated always as identity primary key,
      delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
      attempt_number int not null,
      attempted_at timestamptz not null,
      manual boolean not null,
      status_code int,
      latency_ms int not null,
      failure_class text,
      error_message text not null,
      response_body text,
      response_truncated boolean not null default false
    )`.execute(db);
  await sql`create index webhook_delivery_attempts_delivery on webhook_delivery_attempts (delivery_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['webhook_delivery_attempts', 'webhook_deliveries', 'webhook_subscriptions']) {
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
  }
}
