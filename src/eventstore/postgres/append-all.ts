// Several streams appended atomically, as one call of es_append_all (migration 2026_11_26_0600): one
// statement, one round trip, one commit. Each stream is appended by es_append inside it, so the lock
// order, the expected-revision checks and ESDUP behave as for one stream (append.ts); a failed check
// on any stream writes nothing and names that stream.
import { executePrepared } from '../../infra/prepared.js';
import type { Db } from '../../infra/database.js';
import { categoryOf, WrongExpectedVersionError, type AppendResult, type StreamAppend } from '../port.js';
import { findPriorAppend, isEventIdsAlreadyStored, resolveReappend } from './append.js';

const APPEND_ALL_SQL =
  'select idx, outcome, revision, global_position, tx_id from es_append_all($1::text[], $2::text[], $3::text[], $4::bigint[], $5::jsonb) order by idx';
type AppendAllRow = {
  idx: number;
  outcome: 'appended' | 'conflict' | 'unwritten';
  revision: string | null;
  global_position: string | null;
  tx_id: string | null;
};

export async function appendAll(db: Db, appends: readonly StreamAppend[]): Promise<AppendResult[]> {
  if (appends.length === 0) return [];
  if (new Set(appends.map((a) => a.streamId)).size !== appends.length) throw new Error('appendToStreams needs distinct streams');
  if (appends.some((a) => a.events.length === 0)) throw new Error('appendToStreams needs at least one event per stream');
  const payload = JSON.stringify(appends.map((a) => a.events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata }))));
  let rows: AppendAllRow[];
  try {
    rows = (
      await executePrepared<AppendAllRow>(db, 'es_append_all', APPEND_ALL_SQL, [
        appends.map((a) => a.streamId),
        appends.map((a) => categoryOf(a.streamId)),
        appends.map((a) => (typeof a.expected === 'number' ? 'exact' : a.expected)),
        appends.map((a) => (typeof a.expected === 'number' ? a.expected : null)),
        payload,
      ])
    ).rows;
  } catch (err) {
    if (!isEventIdsAlreadyStored(err)) throw err;
    // A re-append after a lost reply: the original results if every stream holds its events where
    // the call expected them (the statement was all or none, so it is all), else a conflict.
    return Promise.all(appends.map((a) => resolveReappend(db, a.streamId, a.events, a.expected)));
  }
  const conflict = rows.findIndex((r) => r.outcome === 'conflict');
  if (conflict >= 0) {
    // The call's own events, stored by an earlier try whose reply was lost, fail the check too. The
    // statement was all or none, so the failing stream tells: holding them, every stream does, and
    // the original results answer (one lookup on a plain conflict, one per stream on a re-append).
    const failed = appends[conflict]!;
    if (await findPriorAppend(db, failed.streamId, failed.events, failed.expected)) {
      const prior = await Promise.all(appends.map((a) => findPriorAppend(db, a.streamId, a.events, a.expected)));
      if (prior.every((p) => p !== undefined)) return prior;
    }
    const { streamId, expected } = appends[conflict]!;
    const actual = rows[conflict]!.revision;
    throw new WrongExpectedVersionError(streamId, expected, actual === null ? 'no_stream' : Number(actual));
  }
  return rows.map((r) => ({
    nextExpectedRevision: Number(r.revision),
    position: { commit: BigInt(r.tx_id!), prepare: BigInt(r.global_position!) },
  }));
}
