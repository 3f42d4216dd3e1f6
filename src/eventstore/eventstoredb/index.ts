// The EventStoreDB adapter of the event-store port, on @eventstore/db-client 6.2.1. This module and
// its client are optional: open-event-store.ts imports it only when EVENT_STORE=eventstoredb.
// How the port maps onto ESDB, and where it differs from the PostgreSQL adapter: docs/eventstoredb.md.
import type { EventStore, Subscription } from '../port.js';
import { append } from './append.js';
import { catchUp } from './catch-up.js';
import { connect } from './connect.js';
import { createConsumerGroup, subscribeToConsumerGroup } from './consumer-group.js';
import { listParked, replayParked } from './parked.js';
import { countAfter, headPosition, readAll } from './read-all.js';
import { readStream } from './read-stream.js';

export async function createEventStoreDbEventStore(
  connectionString: string,
  opts: { onError?(e: unknown): void } = {},
): Promise<EventStore> {
  const client = await connect(connectionString);
  const reportError = opts.onError?.bind(opts);

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
  let closing: Promise<void> | undefined;

  return {
    kind: 'eventstoredb',
    appendToStream: (streamId, events, expected) => append(client, streamId, events, expected),
    readStream: (streamId, o) => readStream(client, streamId, o),
    readAll: (o) => readAll(client, o),
    headPosition: (filter) => headPosition(client, filter),
    countAfter: (after, filter, cap) => countAfter(client, after, filter, cap),
    subscribeToAll: (o) => track(catchUp(client, o, reportError)),
    createConsumerGroup: (group, settings) => createConsumerGroup(client, group, settings),
    subscribeToConsumerGroup: (group, o) => track(subscribeToConsumerGroup(client, group, o, reportError)),
    listParked: (group) => listParked(client, group),
    replayParked: (group) => replayParked(client, group),
    close() {
      closing ??= (async () => {
        const subs = [...running];
        running.clear();
        await Promise.all(subs.map((s) => s.stop()));
        await client.dispose();
      })();
      return closing;
    },
  };
}
