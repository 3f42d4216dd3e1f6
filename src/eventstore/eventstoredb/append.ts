// Appends. ESDB checks the expected revision itself, and re-appending the same event ids at the
// same expected revision is idempotent on the server. What the server does not do is the port's
// other rule: event ids already stored in the stream, reused in a NEW batch at the current
// revision, are a conflict. ESDB has no index of event ids; with an expected revision equal to the
// current one it simply writes the duplicates. So an append first reads the stream's stored ids
// (streams in this domain are short; a missing stream costs one round trip) and settles
// re-appends and reused ids exactly as the PostgreSQL adapter does, but per stream: ESDB scopes
// event-id idempotency to a stream, so an id reused in ANOTHER stream is not detected here.
//
// The result's position is read back from the stream: the position of the last event written (or
// of the original append, for a re-append). The server's own append reply reports a transaction
// position that, for multi-event appends and idempotent retries, is not that event's position, or
// none at all.
import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  type AppendExpectedRevision,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import { WrongExpectedVersionError, type AppendResult, type ExpectedRevision, type NewEvent, type RecordedEvent } from '../port.js';
import { toEventData, toPosition } from './events.js';
import { readStream } from './read-stream.js';

export async function append(
  client: EventStoreDBClient,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('appendToStream needs at least one event');
  const stored = await readStream(client, streamId);
  const prior = priorAppend(streamId, stored, events, expected);
  if (prior) return prior;

  let written: bigint;
  let replied: AppendResult['position'] | undefined;
  try {
    const r = await client.appendToStream(streamId, events.map(toEventData), { expectedRevision: toExpectedRevision(expected) });
    // Only a client told not to throw (throwOnAppendFailure=false, refused at connect) reports a
    // lost race this way; it is a conflict all the same, never a success.
    if (!r.success) throw new WrongExpectedVersionError(streamId, expected, currentRevisionOf(r.nextExpectedRevision));
    written = r.nextExpectedRevision;
    replied = r.position ? toPosition(r.position) : undefined;
  } catch (err) {
    if (err instanceof WrongExpectedVersionError) throw err;
    if (err instanceof EsdbWrongExpectedVersionError) {
      const actual = err.actualVersion === 'no_stream' ? 'no_stream' : Number(err.actualVersion);
      throw new WrongExpectedVersionError(streamId, expected, actual);
    }
    throw err;
  }
  const [last] = await readStream(client, streamId, { direction: 'backwards', fromRevision: Number(written), maxCount: 1 });
  const position = last?.position ?? replied;
  if (!position) throw new Error(`EventStoreDB did not report the position of ${written}@${streamId}`);
  return { nextExpectedRevision: Number(written), position };
}

function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

/**
 * The batch's ids already stored: the original append when every id sits in this stream,
 * consecutively and in batch order, where the call expected them; anything else is a conflict.
 */
function priorAppend(streamId: string, stored: RecordedEvent[], events: NewEvent[], expected: ExpectedRevision): AppendResult | undefined {
  const ids = events.map((e) => e.id.toLowerCase());
  const wanted = new Set(ids);
  const found = stored.filter((e) => wanted.has(e.id.toLowerCase()));
  if (found.length === 0) return undefined;
  const first = found[0]!.revision;
  const same =
    found.length === events.length &&
    found.every((e, i) => e.id.toLowerCase() === ids[i] && e.revision === first + i) &&
    (expected === 'any' ||
      expected === 'stream_exists' ||
      (expected === 'no_stream' && first === 0) ||
      (typeof expected === 'number' && first === expected + 1));
  if (!same) throw new WrongExpectedVersionError(streamId, expected, stored[stored.length - 1]!.revision);
  const last = found[found.length - 1]!;
  return { nextExpectedRevision: last.revision, position: last.position };
}

/** The client reports a missing stream's revision as -1n on a failed append. */
function currentRevisionOf(next: bigint): number | 'no_stream' {
  return next < 0n ? 'no_stream' : Number(next);
}
