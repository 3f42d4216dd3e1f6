// The delivery outbox as the projector and the dispatcher use it: fan-out inserts and claims (the
// record of an attempt is attempt-recorder.ts).
//
// Claiming moves `next_attempt_at` past the attempt's deadline and stamps a fresh lease token in one
// statement (FOR UPDATE SKIP LOCKED, so concurrent dispatchers never take the same row). The record
// is fenced on that token: a worker whose lease expired, or whose subscription was deleted
// meanwhile, records nothing. A worker that dies between sending and recording leaves the row to
// fall due again when the lease runs out; it is then sent again with the same bytes and event id.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../infra/database.js';
import { columnsOf, executePrepared } from '../../infra/prepared.js';

/** One event's deliveries to insert: its catalog envelope and what picks its subscribers. */
export interface DeliveriesOfEvent {
  tenantId: string;
  eventType: string;
  recordedAt: Date;
  eventGuid: string;
  sourceEventId: string;
  payload: Buffer;
}

/**
 * Inserts one Pending delivery for every subscription of each event's tenant that is active, lists
 * the type, and existed when the event was recorded (events from before a subscription have no
 * subscribers). Finding the subscribers and inserting is one statement for all the events, so a
 * subscription deleted or disabled meanwhile gets nothing; an existing (subscription, event) pair
 * is left alone (a redelivered event inserts nothing). Returns how many deliveries were new.
 *
 * `dueAt`: when the first attempts fall due (one time for all, now for the projector).
 *
 * `durable` false: commit without waiting for the WAL flush (no fsync per statement). Safe only
 * when whatever acknowledges the events to the store is itself a later synchronous commit on the
 * same PostgreSQL (see catalog/projector.ts).
 */
export async function insertDeliveries(db: Db, events: readonly DeliveriesOfEvent[], dueAt: Date, durable: boolean): Promise<number> {
  if (events.length === 0) return 0;
  const r = await executePrepared(db, 'webhook_insert_deliveries', INSERT_DELIVERIES_SQL, [
    durable ? 'on' : 'off',
    dueAt,
    ...columnsOf(events, ['eventGuid', 'sourceEventId', 'eventType', 'payload', 'tenantId', 'recordedAt']),
  ]);
  return r.rowCount;
}

// set_config(..., true) applies to this statement's own transaction, so the choice of commit mode
// costs no extra round trip (a BEGIN / SET LOCAL / COMMIT would cost three). The events come as
// parallel arrays, so one fixed text serves any number of them: one statement per batch of events
// (issue 13: catalog inserts batched), sent as a named prepared statement on a server
// (src/infra/prepared.ts). `ord` inserts the rows in the events' order; the order of their
// delivery is the dispatcher's (by due time), as before. node-postgres sends the payloads of a
// bytea[] as hex text inside the array literal, twice their bytes on the wire.
const INSERT_DELIVERIES_SQL = `
  with commit_mode as materialized (select set_config('synchronous_commit', $1, true))
  insert into webhook_deliveries (id, subscription_id, tenant_id, event_id, source_event_id, event_type, payload, status, next_attempt_at)
  select gen_random_uuid(), s.id, s.tenant_id, e.event_guid, e.source_event_id, e.event_type, e.payload, 'Pending', $2::timestamptz
  from unnest($3::uuid[], $4::uuid[], $5::text[], $6::bytea[], $7::uuid[], $8::timestamptz[])
         with ordinality as e (event_guid, source_event_id, event_type, payload, tenant_id, recorded_at, ord)
    join webhook_subscriptions s
      on s.tenant_id = e.tenant_id and s.is_active and s.deleted_at is null
     and e.event_type = any(s.event_types) and s.created_at <= e.recorded_at
    cross join commit_mode
  order by e.ord
  on conflict (subscription_id, event_id) do nothing`;

/** A claimed delivery with what an attempt needs from its subscription. */
export interface ClaimedDelivery {
  id: string;
  /** For the attempt log line and metrics labels of operators; never sent to the partner. */
  tenant_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  payload: Buffer;
  attempt_count: number;
  single_attempt: boolean;
  lease_token: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  /** A delete committed between the delivery's insert and this claim: send nothing, cancel it. */
  subscription_deleted?: boolean;
}

const CLAIM_RETURNING = sql`d.id::text as id, d.tenant_id::text as tenant_id, d.subscription_id::text as subscription_id, d.event_id::text as event_id, d.event_type,
  d.payload, d.attempt_count, d.single_attempt, d.lease_token::text as lease_token,
  s.url, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at, s.deleted_at is not null as subscription_deleted`;

/** PGlite answers bytea as a Uint8Array, node-postgres as a Buffer. */
export function normalizeClaim<T extends { payload: Uint8Array }>(row: T): T & { payload: Buffer } {
  const p = row.payload;
  return { ...row, payload: Buffer.isBuffer(p) ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength) };
}

/**
 * Claims up to `limit` due Pending deliveries, oldest due first, leasing them until `leaseUntil` to
 * `owner`, the pid of the dispatcher's liveness session (liveness.ts; null: the expiry alone).
 */
export async function claimDue(
  db: Db,
  limit: number,
  now: Date,
  leaseUntil: Date,
  owner: number | null = null,
): Promise<ClaimedDelivery[]> {
  const token = randomUUID();
  const r = await sql<ClaimedDelivery>`
    with due as (
      select id from webhook_deliveries
      where status = 'Pending' and next_attempt_at <= ${now}
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update webhook_deliveries d set next_attempt_at = ${leaseUntil}, lease_token = ${token}::uuid, lease_owner = ${owner}::int
    from due, webhook_subscriptions s
    where d.id = due.id and s.id = d.subscription_id
    returning ${CLAIM_RETURNING}`.execute(db);
  return r.rows.map(normalizeClaim);
}

/** Cancels a claimed delivery of a deleted subscription (fenced on the lease, like a record). */
export async function cancelClaimed(db: Db, d: Pick<ClaimedDelivery, 'id' | 'lease_token'>): Promise<void> {
  await sql`update webhook_deliveries set status = 'Cancelled', next_attempt_at = null, lease_token = null, lease_owner = null
    where id = ${d.id}::uuid and lease_token = ${d.lease_token}::uuid`.execute(db);
}

/** When the earliest Pending delivery falls due (a lease expiry included), or undefined when none is pending. */
export async function nextDueAt(db: Db): Promise<Date | undefined> {
  const r = await sql<{ at: Date | null }>`select min(next_attempt_at) as at from webhook_deliveries where status = 'Pending'`.execute(db);
  const at = r.rows[0]?.at;
  return at ? new Date(at) : undefined;
}
