// Append, as one short transaction per call (research note 4.5):
// 1. the per-stream advisory lock is the FIRST statement: it assigns no xid, so xids are taken in
//    lock order and per-stream order can never invert in the (tx_id, global_position) feed;
// 2. expected-revision check; a conflicting call whose event ids are already stored in this stream
//    at the revisions it asked for is a re-append and returns the original result (idempotency);
// 3. stream row upsert, then the events. An event id that is already stored makes the insert
//    skip it; the transaction is then rolled back and the re-append check decides (the common
//    path pays no extra lookup for idempotency).
// Subscribers are woken after the commit (see index.ts): a NOTIFY inside the transaction would
// make committing appends queue on the notification lock.
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../../infra/database.js';
import { categoryOf, WrongExpectedVersionError, type AppendResult, type ExpectedRevision, type NewEvent } from '../port.js';

export const NOTIFY_CHANNEL = 'es_events';

/** Thrown inside the append transaction to roll it back; the caller then runs `resolveReappend`. */
export class EventIdsAlreadyStored extends Error {}

/** After a rolled-back append that met stored event ids: the original result, or a conflict. */
export async function resolveReappend(db: Db, streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
  const prior = await findPriorAppend(db, streamId, events, expected);
  if (!prior) throw new Error('event ids reported stored were not found'); // cannot happen: ids are never deleted
  return prior;
}

export async function appendInTransaction(
  trx: Transaction<Database> | Db,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('appendToStream needs at least one event');
  await sql`select pg_advisory_xact_lock(hashtextextended(${streamId}, 0))`.execute(trx);
  const current = await sql<{ revision: number }>`select revision from es_streams where stream_id = ${streamId}`.execute(trx);
  const actual: number | 'no_stream' = current.rows[0] ? Number(current.rows[0].revision) : 'no_stream';

  const matches =
    expected === 'any' ||
    (expected === 'no_stream' && actual === 'no_stream') ||
    (expected === 'stream_exists' && actual !== 'no_stream') ||
    (typeof expected === 'number' && actual === expected);
  if (!matches) {
    const prior = await findPriorAppend(trx, streamId, events, expected);
    if (prior) return prior;
    throw new WrongExpectedVersionError(streamId, expected, actual);
  }

  const first = actual === 'no_stream' ? 0 : actual + 1;
  const last = first + events.length - 1;
  await sql`
    insert into es_streams (stream_id, revision) values (${streamId}, ${last})
    on conflict (stream_id) do update set revision = excluded.revision, updated_at = now()`.execute(trx);

  const category = categoryOf(streamId);
  const values = events.map(
    (e, i) => sql`(${e.id}::uuid, ${streamId}, ${category}, ${first + i}, ${e.type}, ${JSON.stringify(e.data)}::jsonb, ${JSON.stringify(e.metadata)}::jsonb)`,
  );
  const inserted = await sql<{ global_position: number; tx_id: string }>`
    insert into es_events (event_id, stream_id, category, revision, type, data, metadata)
    values ${sql.join(values)}
    on conflict (event_id) do nothing
    returning global_position, tx_id::text as tx_id`.execute(trx);
  if (inserted.rows.length < events.length) throw new EventIdsAlreadyStored();

  const lastRow = inserted.rows[inserted.rows.length - 1]!;
  return { nextExpectedRevision: last, position: { commit: BigInt(lastRow.tx_id), prepare: BigInt(lastRow.global_position) } };
}

/**
 * The same event ids stored before: a client or the write path retrying after a lost reply. It is
 * the original append when every id sits in this stream, consecutively, where the call expected
 * them; anything else is a conflict.
 */
async function findPriorAppend(
  trx: Transaction<Database> | Db,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult | undefined> {
  const ids = events.map((e) => e.id);
  const found = await sql<{ event_id: string; stream_id: string; revision: number; global_position: number; tx_id: string }>`
    select event_id::text as event_id, stream_id, revision, global_position, tx_id::text as tx_id
    from es_events where event_id = any(${ids}::uuid[]) order by revision`.execute(trx);
  if (found.rows.length === 0) return undefined;
  const rows = found.rows;
  const firstRevision = Number(rows[0]!.revision);
  const sameAppend =
    rows.length === events.length &&
    rows.every((r, i) => r.stream_id === streamId && r.event_id === ids[i] && Number(r.revision) === firstRevision + i) &&
    (expected === 'any' || expected === 'stream_exists' ||
      (expected === 'no_stream' && firstRevision === 0) ||
      (typeof expected === 'number' && firstRevision === expected + 1));
  if (!sameAppend) {
    throw new WrongExpectedVersionError(streamId, expected, Number(rows[rows.length - 1]!.revision));
  }
  const last = rows[rows.length - 1]!;
  return { nextExpectedRevision: Number(last.revision), position: { commit: BigInt(last.tx_id), prepare: BigInt(last.global_position) } };
}
