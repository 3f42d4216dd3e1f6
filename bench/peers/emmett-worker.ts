// Emmett's PostgreSQL event store as a peer (bench/peers.ts), in a process of its own: its driver
// layer (dumbo) replaces node-postgres's global type parsers (int8 as BigInt, its own JSON), which
// must not leak into our store's process. It runs in the schema it is given (through search_path:
// Emmett's tables are unqualified), created and dropped by the parent. API from the package's own
// type declarations (node_modules/@event-driven-io/emmett-postgresql/dist/index.d.ts).
//
// Messages: { append: seconds } -> { rate } (16 writers, one event per append, each on its own
// stream with its expected version); { read: true } -> { rate, events } (a consumer that reads the
// whole log from the beginning and stops when nothing is left); { stop: true } -> exit.
import { randomUUID } from 'node:crypto';
import { getPostgreSQLEventStore, postgreSQLEventStoreConsumer } from '@event-driven-io/emmett-postgresql';

const { connectionString, writers, type, data, metadata } = JSON.parse(process.argv[2] ?? '{}') as {
  connectionString: string;
  writers: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
};
const store = getPostgreSQLEventStore(connectionString, { schema: { autoMigration: 'CreateOrUpdate' } });
await store.schema.migrate();

async function appendFor(seconds: number): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const counts = await Promise.all(
    Array.from({ length: writers }, async () => {
      const stream = `travelEntry-${randomUUID()}`;
      let expected: bigint | undefined;
      let n = 0;
      while (performance.now() < deadline) {
        const r = await store.appendToStream(
          stream,
          [{ type, data, metadata: { ...metadata, eventId: randomUUID() } }],
          expected === undefined ? { expectedStreamVersion: 'STREAM_DOES_NOT_EXIST' } : { expectedStreamVersion: expected },
        );
        expected = r.nextExpectedStreamVersion;
        n++;
      }
      return n;
    }),
  );
  return counts.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000);
}

async function readAll(): Promise<{ rate: number; events: number }> {
  let events = 0;
  // A consumer of its own (its own pool): closing one made from the store ends the store's pool.
  const consumer = postgreSQLEventStoreConsumer({ connectionString, stopWhen: { noMessagesLeft: true }, pulling: { batchSize: 1000 } });
  consumer.reactor({
    processorId: `bench-read-${randomUUID()}`,
    startFrom: 'BEGINNING',
    eachMessage: () => {
      events++;
      return Promise.resolve();
    },
  });
  const started = performance.now();
  await consumer.start();
  const rate = events / ((performance.now() - started) / 1000);
  await consumer.close();
  return { rate, events };
}

process.send!({ ready: true });
process.on('message', (m: { append?: number; read?: boolean; stop?: boolean }) => {
  void (async () => {
    if (m.append !== undefined) process.send!({ rate: await appendFor(m.append) });
    if (m.read) process.send!(await readAll());
    if (m.stop) {
      await store.close();
      process.exit(0);
    }
  })().catch((err: unknown) => {
    process.send!({ error: String((err as Error).stack ?? err) });
  });
});
