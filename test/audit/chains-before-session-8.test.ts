// Chains hashed before canonical-json.ts existed still verify: fixtures/chains-hashed-by-canonicalize.json
// holds two streams whose hashes the `canonicalize` package computed (three events of a travel
// entry recorded by the write path of commit c4b7f33, and three events with the characters and
// numbers where serializers differ: escapes, UTF-16 key order, integer-like keys, extreme doubles).
// They verify in memory and after a round trip through the event store (jsonb rewrites numbers and
// key order; the canonical form must not care), and a change to one of them is still named.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { verifyEvents } from '../../src/application/audit/verify-chain.js';
import { verifyStream } from '../../src/application/audit/verify-store.js';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import type { NewEvent, RecordedEvent } from '../../src/eventstore/port.js';
import { openTestDatabase } from '../helpers/db.js';

type FixtureEvent = NewEvent & { streamId: string; revision: number };
const fixture = JSON.parse(readFileSync(new URL('./fixtures/chains-hashed-by-canonicalize.json', import.meta.url), 'utf8')) as {
  streams: FixtureEvent[][];
};

t.test('chains hashed by canonicalize verify in memory', async (t) => {
  for (const events of fixture.streams) {
    t.match(verifyEvents(events), { status: 'valid', events: 3, hashed: 3, firstBrokenLink: null }, events[0]!.streamId);
  }
  const changed = structuredClone(fixture.streams[1]!);
  (changed[1]!.data as { numbers: number[] }).numbers[0] = 333333333.3333334;
  t.match(verifyEvents(changed), { status: 'broken', firstBrokenLink: { revision: 1, field: 'hash' } }, 'one changed number is named');
});

t.test('and after a round trip through the event store', async (t) => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  for (const events of fixture.streams) {
    const streamId = events[0]!.streamId;
    await store.appendToStream(
      streamId,
      events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })),
      'no_stream',
    );
    const stored: RecordedEvent[] = await store.readStream(streamId);
    t.same(
      stored.map((e) => e.data),
      events.map((e) => e.data),
      'the data reads back equal',
    );
    t.match(await verifyStream(store, streamId, events[0]!.metadata.tenantId), { status: 'valid', events: 3, hashed: 3 }, streamId);
  }
});
