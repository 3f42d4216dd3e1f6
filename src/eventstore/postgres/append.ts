// Append, as one plain statement (no function call): one round trip and, in autocommit, its own
// short transaction (research note 4.5). It used to call the plpgsql function es_append, which
// costs about 40 µs more PostgreSQL CPU per append than the same work as one statement (measured:
// docs/benchmarks.md, session 17). Inside the statement, in this order:
// 1. the per-stream advisory lock (it assigns no xid, so xids are taken in lock order and per-stream
//    order can never invert in the (tx_id, global_position) feed). It also keeps this statement out of
//    es_append_all's way: that function takes every lock before it reads a stream's revision;
// 2. the expected-revision check, against the stream's last revision; on a mismatch nothing is
//    written and the actual revision comes back;
// 3. the events (the stream's revision is its last event's).
// A statement reads with the snapshot it started with, even after waiting for the lock, so an append
// that waited behind another on the same stream asks for a revision that is taken: the unique
// (stream_id, revision) index refuses it (23505) and this module reads it as the conflict it is, or,
// for 'any' and 'stream_exists', appends through es_append, which reads after its lock. An event id
// already stored is refused by its own unique index; the caller then checks for an idempotent
// re-append (the common path pays no lookup).
// Subscribers are woken after the commit (see index.ts): a NOTIFY inside the transaction would
// make committing appends queue on the notification lock.
import { sql, type Transaction } from 'kysely';
import { executePrepared } from '../../infra/prepared.js';
import type { Database, Db } from '../../infra/database.js';
import { categoryOf, WrongExpectedVersionError, type AppendResult, type ExpectedRevision, type NewEvent } from '../port.js';

export const NOTIFY_CHANNEL = 'es_events';

// Fixed text, sent as a named prepared statement on a server (src/infra/prepared.ts). `head` reads
// the revision in a subquery of the lock's row, so the lock is taken first.
const APPEND_SQL = `with locked as materialized (
    select pg_advisory_xact_lock(hashtextextended($1::text, 0))
  ), head as materialized (
    select (select max(e.revision) from es_events e where e.stream_id = $1::text) as actual from locked
  ), passed as (
    select actual from head
    where $3::text = 'any'
       or ($3::text = 'no_stream' and actual is null)
       or ($3::text = 'stream_exists' and actual is not null)
       or ($3::text = 'exact' and actual is not distinct from $4::bigint)
  ), inserted as (
    insert into es_events (event_id, stream_id, category, revision, type, data, metadata)
    select (e.value->>'id')::uuid, $1::text, $2::text, coalesce(p.actual, -1) + e.ordinality,
           e.value->>'type', e.value->'data', e.value->'metadata'
    from passed p, jsonb_array_elements($5::jsonb) with ordinality as e
    order by e.ordinality
    returning es_events.revision, es_events.global_position, es_events.tx_id
  )
  select h.actual::text as actual, l.revision::text as revision, l.global_position::text as global_position, l.tx_id::text as tx_id
  from head h left join lateral (select * from inserted order by revision desc limit 1) l on true`;
/** Every column is text: bigints stay exact, and both drivers return them alike. */
type AppendRow = { actual: string | null; revision: string | null; global_position: string | null; tx_id: string | null };

/** The SQLSTATE es_append (inside es_append_all) raises when an event id in the call is already stored. */
const EVENT_IDS_ALREADY_STORED = 'ESDUP';
const UNIQUE_VIOLATION = '23505';
const EVENT_ID_KEY = 'es_events_event_id_key';
const STREAM_REVISION_KEY = 'es_events_stream_id_revision_key';

function isUniqueViolationOf(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === UNIQUE_VIOLATION && e.constraint === constraint;
}

/** True for the error of an append that met stored event ids: the caller then runs `resolveReappend`. */
export function isEventIdsAlreadyStored(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === EVENT_IDS_ALREADY_STORED || isUniqueViolationOf(err, EVENT_ID_KEY);
}

/** After an append that met stored event ids: the original result, or a conflict. */
export async function resolveReappend(db: Db, streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
  const prior = await findPriorAppend(db, streamId, events, expected);
  if (!prior) throw new Error('event ids reported stored were not found'); // cannot happen: ids are never deleted
  return prior;
}

/**
 * Appends in one statement. With `db` it commits on its own; inside a transaction it commits with
 * it (tests use that to hold a commit open). A refused event id or revision leaves a surrounding
 * transaction aborted, so there the error is thrown as it is.
 */
export async function appendEvents(
  executor: Transaction<Database> | Db,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('appendToStream needs at least one event');
  const params = [
    streamId,
    categoryOf(streamId),
    typeof expected === 'number' ? 'exact' : expected,
    typeof expected === 'number' ? expected : null,
    JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata }))),
  ];
  let row: AppendRow;
  try {
    row = (await executePrepared<AppendRow>(executor, 'es_append_statement', APPEND_SQL, params)).rows[0]!;
  } catch (err) {
    if (!isUniqueViolationOf(err, STREAM_REVISION_KEY) || executor.isTransaction) throw err;
    // Another append on this stream committed while this one waited for the lock.
    if (expected === 'any' || expected === 'stream_exists') {
      // es_append reads the revision after its lock, in a statement of its own: it cannot lose
      // this race again (sending this statement again could, once per commit it waited behind).
      row = await appendAfterLock(executor, params);
    } else {
      row = { actual: await lastRevision(executor, streamId), revision: null, global_position: null, tx_id: null };
    }
  }
  if (row.revision !== null) {
    return {
      nextExpectedRevision: Number(row.revision),
      position: { commit: BigInt(row.tx_id!), prepare: BigInt(row.global_position!) },
    };
  }
  const prior = await findPriorAppend(executor, streamId, events, expected);
  if (prior) return prior;
  throw new WrongExpectedVersionError(streamId, expected, row.actual === null ? 'no_stream' : Number(row.actual));
}

const APPEND_FUNCTION_SQL =
  'select outcome, revision::text as revision, global_position::text as global_position, tx_id from es_append($1, $2, $3, $4::bigint, $5::jsonb)';

/** The append through the es_append function (migration 2026_11_21_0002), as an AppendRow. */
async function appendAfterLock(db: Db, params: unknown[]): Promise<AppendRow> {
  const r = (
    await executePrepared<{
      outcome: 'appended' | 'conflict';
      revision: string | null;
      global_position: string | null;
      tx_id: string | null;
    }>(db, 'es_append_function', APPEND_FUNCTION_SQL, params)
  ).rows[0]!;
  return r.outcome === 'conflict' ? { actual: r.revision, revision: null, global_position: null, tx_id: null } : { actual: null, ...r };
}

async function lastRevision(db: Db, streamId: string): Promise<string | null> {
  const r = await sql<{ revision: string | null }>`
    select max(revision)::text as revision from es_events where stream_id = ${streamId}`.execute(db);
  return r.rows[0]?.revision ?? null;
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
