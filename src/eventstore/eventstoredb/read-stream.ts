// Reading one stream. The server reports a missing stream as an error in the middle of the read;
// the port reads it as an empty list. `toRevision` has no server-side counterpart: the read stops
// (and is cancelled) at the first event past it.
import { BACKWARDS, END, FORWARDS, START, StreamNotFoundError, type EventStoreDBClient, type ResolvedEvent } from '@eventstore/db-client';
import type { ReadStreamOptions, RecordedEvent } from '../port.js';
import { toRecorded } from './events.js';
import { readEach } from './pull.js';

export async function readStream(client: EventStoreDBClient, streamId: string, o: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
  if (o.maxCount !== undefined && o.maxCount <= 0) return [];
  const backwards = o.direction === 'backwards';
  const events: RecordedEvent[] = [];
  const read = client.readStream(streamId, {
    direction: backwards ? BACKWARDS : FORWARDS,
    fromRevision: o.fromRevision !== undefined ? BigInt(o.fromRevision) : backwards ? END : START,
    maxCount: o.maxCount,
  });
  try {
    await readEach<ResolvedEvent>(read, ({ event }) => {
      if (!event) return true;
      const revision = Number(event.revision);
      if (o.toRevision !== undefined && (backwards ? revision < o.toRevision : revision > o.toRevision)) return false;
      events.push(toRecorded(event));
      return true;
    });
  } catch (err) {
    if (err instanceof StreamNotFoundError) return [];
    throw err;
  }
  return events;
}
