// A test's PostgreSQL event store reached through a reply cutter (reply-cutter.ts), beside the
// direct handle on the same schema, for tests of appends whose reply or request is lost.
import type { Test } from 'tap';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import type { EventStore } from '../../src/eventstore/port.js';
import { openDatabase, type DatabaseHandle } from '../../src/infra/database.js';
import { TEST_DATABASE_URL, openTestDatabase } from './db.js';
import { startReplyCutter, type ReplyCutter } from './reply-cutter.js';

export interface StoreBehindCutter {
  /** The test's schema, reached directly: what is really stored. */
  direct: DatabaseHandle;
  cutter: ReplyCutter;
  /** The store whose connections pass the cutter (a pool of 2). */
  store: EventStore;
}

/** Needs TEST_DATABASE_URL (a PostgreSQL server); everything opened is closed at the test's end. */
export async function openStoreBehindCutter(t: Test): Promise<StoreBehindCutter> {
  const direct = await openTestDatabase(t);
  const server = new URL(TEST_DATABASE_URL!);
  const cutter = await startReplyCutter({ host: server.hostname, port: Number(server.port || 5432), user: server.username || 'postgres' });
  t.teardown(() => cutter.close());
  const handle = await openDatabase({
    databaseUrl: cutter.url(server.pathname.slice(1)),
    dataDir: 'memory://',
    searchPath: direct.searchPath!,
    poolSize: 2,
  });
  const store = createPostgresEventStore(handle);
  t.teardown(async () => {
    await store.close();
    await handle.close();
  });
  return { direct, cutter, store };
}
