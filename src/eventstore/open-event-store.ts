// Opens the event store the configuration selects. The EventStoreDB adapter is imported only when
// selected: its client (gRPC, protobuf) is an optional dependency that the embedded default and CI
// never load. Nothing else imports ./eventstoredb statically.
import type { DatabaseHandle } from '../infra/database.js';
import type { EventStore } from './port.js';
import { createPostgresEventStore } from './postgres/index.js';

export interface EventStoreSelection {
  eventStore: 'postgres' | 'eventstoredb';
  eventStoreConnectionString?: string | undefined;
}

export interface OpenEventStoreOptions {
  /** Errors with no other reporter (listener connections, subscriptions without an onError). */
  onError?(err: unknown): void;
}

export async function openEventStore(
  config: EventStoreSelection,
  handle: DatabaseHandle,
  opts: OpenEventStoreOptions = {},
): Promise<EventStore> {
  if (config.eventStore === 'postgres') {
    return createPostgresEventStore(handle, { onError: (err) => opts.onError?.(err) });
  }
  // With EventStoreDB the handle still serves the read models; the events live on the server.
  const connectionString = config.eventStoreConnectionString;
  if (!connectionString) throw new Error('EVENT_STORE=eventstoredb needs EVENTSTORE_CONNECTION_STRING');
  const adapter = await import('./eventstoredb/index.js').catch((err: unknown) => {
    throw new Error(
      'Cannot load the EventStoreDB adapter: is the optional dependency @eventstore/db-client installed (npm install --include=optional)?',
      { cause: err },
    );
  });
  return adapter.createEventStoreDbEventStore(connectionString, opts);
}
