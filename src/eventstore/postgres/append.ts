// Append, as one call of the es_append function (migration 2026_11_21_0002): one statement, so one
// round trip and, in autocommit, its own short transaction (research note 4.5). Inside it:
// 1. the per-stream advisory lock is the FIRST statement: it assigns no xid, so xids are taken in
//    lock order and per-stream order can never invert in the (tx_id, global_position) feed;
// 2. the expected-revision check; on a mismatch the function reports the actual revision and
//    writes nothing, and a call whose event ids are already stored in this stream at the revisions it
//    asked for is a re-append that returns the original result (idempotency);
// 3. the events (the stream's revision is its last event's). An event id already stored makes the insert
//    skip it; the function then raises ESDUP, which undoes the whole statement, and the re-append
//    check decides (the common path pays no extra lookup for idempotency).
// Subscribers are woken after the commit (see index.ts): a NOTIFY inside the transaction would
// make committing appends queue on the notification lock.
import { sql, type Transaction } from 'kysely';
import { executePrepared } from '../../infra/prepared.js';
import type { Database, Db } from '../../infra/database.js';
import { categoryOf, WrongExpectedVersionError, type AppendResult, type ExpectedRevision, type NewEvent } from '../port.js';

export const NOTIFY_CHANNEL = 'es_events';

// Fixed text, sent as a named prepared statement on a server (src/infra/prepared.ts).
const APPEND_SQL = 'select outcome, revision, global_position, tx_id from es_append($1, $2, $3, $4::bigint, $5::jsonb)';
type AppendRow = { outcome: 'appended' | 'conflict'; revision: string | null; global_position: string | null; tx_id: string | null };

/** The SQLSTATE es_append raises when an event id in the call is already stored. */
const EVENT_IDS_ALREADY_STORED = 'ESDUP';

/** True for the error of an append that met stored event ids: the caller then runs `resolveReappend`. */
export function isEventIdsAlreadyStored(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === EVENT_IDS_ALREADY_STORED;
}

/** After an append that met stored event ids: the original result, or a conflict. */
export async function resolveReappend(db: Db, streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
  const prior = await findPriorAppend(db, streamId, events, expected);
  if (!prior) throw new Error('event ids reported stored were not found'); // cannot happen: ids are never deleted
  return prior;
}

/**
 * Appends in one statement. With `db` it commits on its own; inside a transaction it commits with
 * it (tests use that to hold a commit open). An ESDUP error leaves a surrounding transaction aborted.
 */
export async function appendEvents(
  executor: Transaction<Database> | Db,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('appendToStream needs at least one event');
  const kind = typeof expected === 'number' ? 'exact' : expected;
  const revision = typeof expected === 'number' ? expected : null;
  const payload = JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })));
  const result = await executePrepared<AppendRow>(executor, 'es_append', APPEND_SQL, [
    streamId,
    categoryOf(streamId),
    kind,
    revision,
    payload,
  ]);
  const row = result.rows[0]!;
  if (row.outcome === 'conflict') {
    const prior = await findPriorAppend(executor, streamId, events, expected);
    if (prior) return prior;
    throw new WrongExpectedVersionError(streamId, expected, row.revision === null ? 'no_stream' : Number(row.revision));
  }
  return { nextExpectedRevision: Number(row.revision), position: { commit: BigInt(row.tx_id!), prepare: BigInt(row.global_position!) } };
}

/**
 * The same event ids stored before: a client or the write path retrying after a lost reply. It is
 * the original append when every id sits in this stream, consecutively, where the call expected
 * them; anything else is a conflict.
 */
export async function findPriorAppend(
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
    (expected === 'any' ||
      expected === 'stream_exists' ||
      (expected === 'no_stream' && firstRevision === 0) ||
      (typeof expected === 'number' && firstRevision === expected + 1));
  if (!sameAppend) {
    throw new WrongExpectedVersionError(streamId, expected, Number(rows[rows.length - 1]!.revision));
  }
  const last = rows[rows.length - 1]!;
  return { nextExpectedRevision: Number(last.revision), position: { commit: BigInt(last.tx_id), prepare: BigInt(last.global_position) } };
}
