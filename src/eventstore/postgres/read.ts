// Reads. The global feed is read only below pg_snapshot_xmin(pg_current_snapshot()): every
// transaction with a smaller xid has ended, so nothing can still appear behind a reader's
// checkpoint. A long transaction elsewhere shows up as lag, never as a lost event.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../infra/database.js';
import type { FeedFilter, Position, ReadAllOptions, ReadAllPage, ReadStreamOptions, RecordedEvent, RequestEvents } from '../port.js';
import { EVENT_COLUMNS, toRecorded, type EventRow } from './rows.js';

export async function readStream(db: Db, streamId: string, o: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
  const backwards = o.direction === 'backwards';
  const conds: RawBuilder<unknown>[] = [sql`stream_id = ${streamId}`];
  if (o.fromRevision !== undefined) conds.push(backwards ? sql`revision <= ${o.fromRevision}` : sql`revision >= ${o.fromRevision}`);
  if (o.toRevision !== undefined) conds.push(backwards ? sql`revision >= ${o.toRevision}` : sql`revision <= ${o.toRevision}`);
  const limit = o.maxCount === undefined ? sql`` : sql`limit ${o.maxCount}`;
  const r = await sql<EventRow>`
    select ${sql.raw(EVENT_COLUMNS)} from es_events where ${sql.join(conds, sql` and `)}
    order by revision ${sql.raw(backwards ? 'desc' : 'asc')} ${limit}`.execute(db);
  return r.rows.map(toRecorded);
}

function filterConditions(filter: FeedFilter | undefined): RawBuilder<unknown>[] {
  const conds: RawBuilder<unknown>[] = [];
  if (filter?.eventTypes) conds.push(sql`type = any(${[...filter.eventTypes]}::text[])`);
  if (filter?.categories) conds.push(sql`category = any(${[...filter.categories]}::text[])`);
  return conds;
}

function feedConditions(after: Position | undefined, filter: FeedFilter | undefined): RawBuilder<unknown>[] {
  const conds: RawBuilder<unknown>[] = [sql`tx_id < pg_snapshot_xmin(pg_current_snapshot())`, ...filterConditions(filter)];
  if (after) conds.push(sql`(tx_id, global_position) > (${after.commit.toString()}::xid8, ${after.prepare.toString()}::bigint)`);
  return conds;
}

export async function readAll(db: Db, o: ReadAllOptions = {}): Promise<ReadAllPage> {
  const max = o.maxCount ?? 500;
  const r = await sql<EventRow>`
    select ${sql.raw(EVENT_COLUMNS)} from es_events where ${sql.join(feedConditions(o.after, o.filter), sql` and `)}
    order by es_events.tx_id, es_events.global_position limit ${max}`.execute(db);
  const events = r.rows.map(toRecorded);
  const lastPosition = events.length > 0 ? events[events.length - 1]!.position : o.after;
  return { events, lastPosition, isEnd: events.length < max };
}

export async function headPosition(db: Db, filter?: FeedFilter): Promise<Position | undefined> {
  const r = await sql<{ tx_id: string; global_position: number }>`
    select tx_id::text as tx_id, global_position from es_events
    where ${sql.join(feedConditions(undefined, filter), sql` and `)}
    order by es_events.tx_id desc, es_events.global_position desc limit 1`.execute(db);
  const row = r.rows[0];
  return row ? { commit: BigInt(row.tx_id), prepare: BigInt(row.global_position) } : undefined;
}

/** Visible events after a position, counted up to `cap` (lag for /readyz and metrics). */
export async function countAfter(db: Db, after: Position | undefined, filter: FeedFilter | undefined, cap: number): Promise<number> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from es_events where ${sql.join(feedConditions(after, filter), sql` and `)} limit ${cap}) t`.execute(
    db,
  );
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * The streams of one request's events after a position (EventStore.streamsOfRequest). No snapshot
 * bound: a committed event counts even below an older open transaction, which the feed would wait
 * for. The range scan follows the feed's index from `after`.
 */
export async function streamsOfRequest(db: Db, q: RequestEvents): Promise<string[]> {
  const r = await sql<{ stream_id: string }>`
    select distinct stream_id from es_events
    where ${q.after ? sql`(tx_id, global_position) > (${q.after.commit.toString()}::xid8, ${q.after.prepare.toString()}::bigint)` : sql`true`}
      and recorded_at <= ${q.until}
      and metadata->>'correlationId' = ${q.correlationId} and metadata->>'tenantId' = ${q.tenantId}`.execute(db);
  return r.rows.map((row) => row.stream_id);
}
