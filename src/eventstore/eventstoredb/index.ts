// The EventStoreDB adapter of the event-store port, on @eventstore/db-client 6.2.1. This module and
// its client are optional: open-event-store.ts imports it only when EVENT_STORE=eventstoredb.
// How the port maps onto ESDB, and where it differs from the PostgreSQL adapter: docs/eventstoredb.md.
import type { EventStore, FeedFilter, Position, Subscription } from '../port.js';
import { append } from './append.js';
import { catchUp } from './catch-up.js';
import { ClosingGuard } from './closing-guard.js';
import { createConsumerGroup, serverGroupOf, subscribeToConsumerGroup } from './consumer-group.js';
import { listParked, replayParked } from './parked.js';
import { countAfter, headPosition, readAll } from './read-all.js';
import { scanStreamsOfRequest } from '../streams-of-request.js';
import { readStream } from './read-stream.js';
import { acquireClient, releaseClient } from './shared-client.js';

/**
 * Lag counts stream every matching event behind a checkpoint over gRPC (ESDB has no server-side
 * count): up to the cap per projection on every /metrics scrape. A count is reused for this long.
 */
const LAG_COUNT_REUSE_MS = 10_000;

export async function createEventStoreDbEventStore(
  connectionString: string,
  opts: { onError?(e: unknown): void } = {},
): Promise<EventStore> {
  const client = await acquireClient(connectionString);
  const reportError = opts.onError?.bind(opts);
  const guard = new ClosingGuard();

  // Subscriptions still running at close() are stopped before the client goes, so none of them
  // reports the disposed connection as an error.
  const running = new Set<Subscription>();
  const track = (sub: Subscription): Subscription => {
    running.add(sub);
    return {
      async stop() {
        running.delete(sub);
        await sub.stop();
      },
    };
  };
  const counted = new Map<string, { at: number; count: Promise<number> }>();
  const countLag = (after: Position | undefined, filter: FeedFilter | undefined, cap: number): Promise<number> => {
    const key = JSON.stringify([after?.commit.toString(), after?.prepare.toString(), filter ?? null, cap]);
    const now = Date.now();
    const hit = counted.get(key);
    if (hit && now - hit.at < LAG_COUNT_REUSE_MS) return hit.count;
    for (const [k, v] of counted) if (now - v.at >= LAG_COUNT_REUSE_MS) counted.delete(k);
    const count = guard.run(() => countAfter(client, after, filter, cap));
    counted.set(key, { at: now, count });
    count.catch(() => counted.delete(key));
    return count;
  };
  let closing: Promise<void> | undefined;

  return {
    kind: 'eventstoredb',
    appendToStream: (streamId, events, expected) => guard.run(() => append(client, streamId, events, expected)),
    readStream: (streamId, o) => guard.run(() => readStream(client, streamId, o)),
    readAll: (o) => guard.run(() => readAll(client, o)),
    headPosition: (filter) => guard.run(() => headPosition(client, filter)),
    streamsOfRequest: (q) => guard.run(() => scanStreamsOfRequest((o) => readAll(client, o), q)),
    countAfter: countLag,
    subscribeToAll: (o) => track(catchUp(client, o, reportError)),
    createConsumerGroup: (group, settings) => guard.run(() => createConsumerGroup(client, group, settings)),
    subscribeToConsumerGroup: (group, o) => track(subscribeToConsumerGroup(client, group, o, reportError)),
    listParked: (group) => guard.run(() => listParked(client, serverGroupOf(group))),
    replayParked: (group) => guard.run(() => replayParked(client, serverGroupOf(group))),
    close() {
      closing ??= (async () => {
        const subs = [...running];
        running.clear();
        await Promise.all(subs.map((s) => s.stop()));
        guard.close();
        await releaseClient(client);
      })();
      return closing;
    },
  };
}
