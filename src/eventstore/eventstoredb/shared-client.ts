// One client per process. Client 6.2.1 keeps one batch-append promise map for the whole process:
// disposing one client rejects the appends of another and can throw an uncaught TypeError (fixed
// upstream, not in this version). So every adapter opened in a process on the same connection
// string shares one client, and the client is disposed when the last adapter closes. A second
// connection string in the same process is refused for the same reason.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { connect } from './connect.js';

let shared: { connectionString: string; client: Promise<EventStoreDBClient>; users: number } | undefined;

export async function acquireClient(connectionString: string): Promise<EventStoreDBClient> {
  if (shared && shared.connectionString !== connectionString) {
    throw new Error('This process already holds an EventStoreDB client for another connection string (one client per process)');
  }
  if (!shared) {
    const entry = { connectionString, client: connect(connectionString), users: 0 };
    shared = entry;
    // A failed connect leaves nothing behind, so the next open tries again.
    entry.client.catch(() => {
      if (shared === entry) shared = undefined;
    });
  }
  shared.users++;
  try {
    return await shared.client;
  } catch (err) {
    shared = undefined;
    throw err;
  }
}

export async function releaseClient(client: EventStoreDBClient): Promise<void> {
  if (!shared) return;
  const held = await shared.client.catch(() => undefined);
  if (held !== client) return;
  shared.users--;
  if (shared.users > 0) return;
  shared = undefined;
  await client.dispose();
}
