// appendToStreams on the PostgreSQL adapter (es_append_all, issue 13): several streams in one
// statement, all or none. A failed check on any stream writes nothing on every stream and names the
// stream; the streams share one commit; a re-append of the same events answers the original result;
// concurrent calls over the same streams in opposite orders neither deadlock nor both win.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import { WrongExpectedVersionError, type NewEvent } from '../../src/eventstore/port.js';
import { openTestDatabase } from '../helpers/db.js';

const event = (type: string, data: unknown = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: {
    tenantId: randomUUID(),
    actor: { system: 'test' },
    correlationId: 'c',
    causationId: 'c',
    occurredAt: new Date().toISOString(),
  },
});

t.test('appendToStreams', async (t) => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const append = store.appendToStreams!.bind(store);
  const tag = randomUUID().slice(0, 8);
  const s = (name: string) => `${name}-${tag}`;

  t.test('all streams are written in one commit, each at its revision', async (t) => {
    await store.appendToStream(s('seq'), [event('A'), event('A')], 'no_stream');
    const results = await append([
      { streamId: s('seq'), events: [event('R')], expected: 1 },
      { streamId: s('claim'), events: [event('C')], expected: 'no_stream' },
      { streamId: s('entry'), events: [event('E1'), event('E2')], expected: 'no_stream' },
    ]);
    t.same(
      results.map((r) => r.nextExpectedRevision),
      [2, 0, 1],
    );
    t.equal(new Set(results.map((r) => r.position.commit)).size, 1, 'one transaction');
    t.same(
      (await store.readStream(s('entry'))).map((e) => e.type),
      ['E1', 'E2'],
    );
  });

  t.test('a failed check on one stream writes nothing anywhere and names that stream', async (t) => {
    const before = await store.readStream(s('seq'));
    const err = await append([
      { streamId: s('seq'), events: [event('R')], expected: 2 },
      { streamId: s('claim'), events: [event('C')], expected: 'no_stream' }, // exists: the conflict
      { streamId: s('entry-2'), events: [event('E')], expected: 'no_stream' },
    ]).catch((e: unknown) => e);
    t.ok(err instanceof WrongExpectedVersionError, 'a WrongExpectedVersionError');
    t.equal((err as WrongExpectedVersionError).streamId, s('claim'));
    t.equal((err as WrongExpectedVersionError).actual, 0);
    t.equal((await store.readStream(s('seq'))).length, before.length, 'the stream whose check passed got nothing');
    t.same(await store.readStream(s('entry-2')), [], 'nor did the new one');
  });

  t.test('the same events again answer the original result; other events there are a conflict', async (t) => {
    const appends = [
      { streamId: s('r1'), events: [event('X')], expected: 'no_stream' as const },
      { streamId: s('r2'), events: [event('Y')], expected: 'no_stream' as const },
    ];
    const first = await append(appends);
    t.same(await append(appends), first, 'a re-append after a lost reply');
    t.equal((await store.readStream(s('r1'))).length, 1, 'written once');
    await t.rejects(append([{ ...appends[0]!, events: [event('Z')] }]), WrongExpectedVersionError);
  });

  t.test('concurrent calls on the same streams in opposite orders: one wins, no deadlock', async (t) => {
    const a = { streamId: s('x'), expected: 'no_stream' as const };
    const b = { streamId: s('y'), expected: 'no_stream' as const };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        append(
          i % 2 === 0
            ? [
                { ...a, events: [event('A')] },
                { ...b, events: [event('B')] },
              ]
            : [
                { ...b, events: [event('B')] },
                { ...a, events: [event('A')] },
              ],
        ),
      ),
    );
    t.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, 'exactly one call wins');
    t.ok(
      outcomes.every((o) => o.status === 'fulfilled' || o.reason instanceof WrongExpectedVersionError),
      'the others lost a check (no deadlock error)',
    );
    t.equal((await store.readStream(s('x'))).length, 1);
    t.equal((await store.readStream(s('y'))).length, 1);
  });

  t.test('streams must be distinct', async (t) => {
    await t.rejects(
      append([
        { streamId: s('d'), events: [event('A')], expected: 'any' },
        { streamId: s('d'), events: [event('B')], expected: 'any' },
      ]),
      /distinct/,
    );
  });
});
