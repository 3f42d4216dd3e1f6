// The hash chain on a real event store (PostgreSQL, or PGlite by default): every event the write path
// appends links to the one before it; a stream recorded before the chain existed starts its chain at
// the unchained marker and verifies as `unhashed`, never `valid`; every kind of tampering (changed
// data, changed metadata, a removed hash, a missing event, a rewritten link) is a named broken link.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventsToAppend, handleCommand } from '../../src/application/command-handler.js';
import { canonicalFormOf, eventHash, GENESIS_HASH, unchainedMarker } from '../../src/application/audit/event-hash.js';
import { verifyEvents } from '../../src/application/audit/verify-chain.js';
import { verifyStore, verifyStream } from '../../src/application/audit/verify-store.js';
import type { CommandContext, Decider } from '../../src/domain/decider.js';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import type { RecordedEvent } from '../../src/eventstore/port.js';
import { openTestDatabase } from '../helpers/db.js';

type Counted = { type: 'Counted'; data: { by: number; note?: string } };
const counter: Decider<{ by: number }, number, Counted> = {
  initialState: () => 0,
  evolve: (s, e) => s + e.data.by,
  decide: (c) => [{ type: 'Counted', data: { by: c.by, note: 'ü "quoted" \u2028' } }],
};
const ctx = (tenantId: string): CommandContext => ({
  tenantId,
  now: new Date().toISOString(),
  newId: randomUUID,
  actor: { system: 'test' },
});

t.test('canonical form and hash', async (t) => {
  t.equal(GENESIS_HASH, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'the SHA-256 of nothing');
  const metadata = { tenantId: 't', actor: { system: 's' }, correlationId: 'c', causationId: 'k', occurredAt: '2026-01-01T00:00:00.000Z' };
  const e = { streamId: 's-1', revision: 0, type: 'X', data: { b: 1, a: [1.5, 'x', null], u: undefined }, metadata };
  t.equal(
    canonicalFormOf({ ...e, metadata: { ...metadata, hash: 'h', previousHash: 'p' } }),
    '{"data":{"a":[1.5,"x",null],"b":1},"metadata":{"actor":{"system":"s"},"causationId":"k","correlationId":"c","occurredAt":"2026-01-01T00:00:00.000Z","tenantId":"t"},"revision":0,"streamId":"s-1","type":"X"}',
    'RFC 8785: sorted keys, no whitespace, undefined left out, the hash fields excluded',
  );
  t.equal(
    eventHash(GENESIS_HASH, e),
    eventHash(GENESIS_HASH, { ...e, data: { u: undefined, a: [1.5, 'x', null], b: 1 } }),
    'key order does not matter',
  );
  t.not(eventHash(GENESIS_HASH, e), eventHash(GENESIS_HASH, { ...e, revision: 1 }), 'the revision is hashed');
  t.not(eventHash(GENESIS_HASH, e), eventHash('x', e), 'the previous hash is hashed');
});

t.test('on the event store', async (t) => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const tenant = randomUUID();
  const count = (streamId: string, extra: { mustNotExist?: boolean } = {}) =>
    handleCommand(store, { streamId, decider: counter, command: { by: 1 }, context: ctx(tenant), correlationId: 'c', ...extra });

  await t.test('the write path chains every event, and the chain survives storage', async (t) => {
    const streamId = `counter-${randomUUID()}`;
    await count(streamId, { mustNotExist: true });
    const results = await Promise.all([count(streamId), count(streamId), count(streamId)]); // concurrent: retries relink
    const events = await store.readStream(streamId);
    t.equal(events.length, 4);
    t.equal(events[0]!.metadata.previousHash, GENESIS_HASH);
    for (let i = 1; i < events.length; i++) t.equal(events[i]!.metadata.previousHash, events[i - 1]!.metadata.hash, `link ${i}`);
    for (const e of events)
      t.equal(e.metadata.hash, eventHash(e.metadata.previousHash!, e), `hash ${e.revision} recomputes from the stored event`);
    const last = results.find((r) => r.revision === 3)!;
    t.equal(last.lastHash, events[3]!.metadata.hash, 'the command result carries the head hash (what `known` passes on)');
    t.match(await verifyStream(store, streamId), {
      status: 'valid',
      events: 4,
      hashed: 4,
      unhashed: 0,
      headRevision: 3,
      headHash: events[3]!.metadata.hash,
    });
    t.equal(await verifyStream(store, streamId, randomUUID()), undefined, 'another tenant: not found');
  });

  await t.test('known: the first attempt links to the hash passed in; a stale one is never appended', async (t) => {
    const streamId = `counter-${randomUUID()}`;
    const first = await handleCommand(store, {
      streamId,
      decider: counter,
      command: { by: 1 },
      context: ctx(tenant),
      correlationId: 'c',
      known: { state: 0, revision: undefined },
    });
    await handleCommand(store, {
      streamId,
      decider: counter,
      command: { by: 1 },
      context: ctx(tenant),
      correlationId: 'c',
      known: { state: first.state, revision: first.revision, lastHash: first.lastHash },
    });
    t.match(await verifyStream(store, streamId), { status: 'valid', events: 2 });
  });

  await t.test('a stream recorded before the chain: unhashed, then chained from the unchained marker', async (t) => {
    const streamId = `counter-${randomUUID()}`;
    const legacy = (revision: number) => ({
      id: randomUUID(),
      type: 'Counted',
      data: { by: 1 },
      metadata: {
        tenantId: tenant,
        actor: { system: 'legacy' },
        correlationId: 'c',
        causationId: 'k',
        occurredAt: new Date().toISOString(),
      },
      revision,
    });
    await store.appendToStream(streamId, [legacy(0), legacy(1)], 'no_stream');
    t.match(await verifyStream(store, streamId), { status: 'unhashed', events: 2, hashed: 0, unhashed: 2, firstBrokenLink: null });
    await count(streamId);
    const events = await store.readStream(streamId);
    t.equal(events[2]!.metadata.previousHash, unchainedMarker(2), 'the chain starts at the explicit marker');
    t.match(await verifyStream(store, streamId), { status: 'unhashed', hashed: 1, unhashed: 2, firstBrokenLink: null });
  });

  await t.test('every kind of tampering is the first broken link', async (t) => {
    const streamId = `counter-${randomUUID()}`;
    await count(streamId, { mustNotExist: true });
    await count(streamId);
    await count(streamId);
    const events = await store.readStream(streamId);
    const copy = (): RecordedEvent[] => structuredClone(events);

    const data = copy();
    data[1]!.data = { by: 2 };
    t.match(verifyEvents(data), {
      status: 'broken',
      firstBrokenLink: {
        streamId,
        revision: 1,
        field: 'hash',
        expected: eventHash(events[0]!.metadata.hash!, data[1]!),
        found: events[1]!.metadata.hash,
      },
    });

    const actor = copy();
    actor[2]!.metadata.actor = { apiKeyId: randomUUID() };
    t.match(verifyEvents(actor), { status: 'broken', firstBrokenLink: { revision: 2, field: 'hash' } });

    const stripped = copy();
    delete stripped[1]!.metadata.hash;
    delete stripped[1]!.metadata.previousHash;
    t.match(
      verifyEvents(stripped),
      { status: 'broken', firstBrokenLink: { revision: 1, field: 'hash', found: null } },
      'a removed hash is not "unhashed"',
    );

    const gap = copy().filter((e) => e.revision !== 1);
    t.match(verifyEvents(gap), { status: 'broken', firstBrokenLink: { revision: 2, field: 'revision', expected: '1', found: '2' } });

    const relinked = copy();
    relinked[2]!.metadata.previousHash = 'f'.repeat(64);
    t.match(verifyEvents(relinked), {
      status: 'broken',
      firstBrokenLink: { revision: 2, field: 'previousHash', expected: events[1]!.metadata.hash, found: 'f'.repeat(64) },
    });
  });

  await t.test('the whole store (or one tenant) from the global feed', async (t) => {
    const other = randomUUID();
    await handleCommand(store, {
      streamId: `counter-${randomUUID()}`,
      decider: counter,
      command: { by: 1 },
      context: ctx(other),
      correlationId: 'c',
    });
    // The global feed shows a commit once every older transaction of the cluster has ended
    // (src/eventstore/postgres/read.ts); on a PostgreSQL shared with other runs that takes a moment.
    for (let i = 0; i < 100 && (await verifyStore(store, { tenantId: other })).streams === 0; i++) await sleep(100);
    const all = await verifyStore(store);
    t.match(all, { ok: true, broken: 0, unhashed: 1 }, 'the legacy stream is counted as unhashed');
    const mine = await verifyStore(store, { tenantId: other });
    t.match(mine, { ok: true, streams: 1, events: 1, valid: 1, unhashed: 0, broken: 0, brokenLinks: [] });
  });

  t.test('eventsToAppend links a multi-event decision within itself', async (t) => {
    const evs = eventsToAppend(
      [
        { type: 'A', data: {} },
        { type: 'B', data: {} },
      ],
      ctx(tenant),
      'c',
      { streamId: 's-1', revision: 4, lastHash: 'h4' },
    );
    t.equal(evs[0]!.metadata.previousHash, 'h4');
    t.equal(evs[1]!.metadata.previousHash, evs[0]!.metadata.hash);
    t.equal(evs[1]!.metadata.hash, eventHash(evs[0]!.metadata.hash!, { streamId: 's-1', revision: 6, ...evs[1]! }));
    t.end();
  });
});
