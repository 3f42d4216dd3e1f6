// More of the one contract, on the global feed: paging, the head, lag counts, filter corners, the
// position of a multi-event append, the metadata round trip and a failing subscriber. Every test
// writes to its own categories, so it runs against a shared EventStoreDB too.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import { comparePositions, type EventMetadata, type NewEvent, type Position } from '../../src/eventstore/port.js';
import { ev, feedOf, uniqueCategory, until, type ContractSubject } from './contract.js';

export function eventStoreFeedContract(t: Test, makeSubject: (t: Test) => Promise<ContractSubject>): void {
  t.test('the feed pages beyond one page: isEnd false, then the next page starts after lastPosition', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const s = `${cat}-${randomUUID()}`;
    await store.appendToStream(
      s,
      ['A', 'B', 'C', 'D', 'E'].map((x) => ev(x)),
      'no_stream',
    );
    await feedOf(store, cat, 5);
    const seen: string[] = [];
    let after: Position | undefined;
    const ends: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await store.readAll({ after, filter: { categories: [cat] }, maxCount: 2 });
      seen.push(...page.events.map((e) => e.type));
      ends.push(page.isEnd);
      if (page.events.length > 0) t.same(comparePositions(page.lastPosition!, page.events.at(-1)!.position) >= 0, true);
      after = page.lastPosition;
      if (page.isEnd) break;
    }
    t.same(seen, ['A', 'B', 'C', 'D', 'E'], 'every event once, in order');
    t.same(ends.slice(0, 2), [false, false], 'full pages are not the end');
    t.same(ends.at(-1), true);
  });

  t.test('headPosition and countAfter follow a filter', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    t.equal(await store.headPosition({ categories: [cat] }), undefined, 'no event of the category yet');
    t.equal(await store.countAfter(undefined, { categories: [cat] }, 10), 0);
    const s = `${cat}-${randomUUID()}`;
    await store.appendToStream(s, [ev('A'), ev('B'), ev('C')], 'no_stream');
    const feed = await feedOf(store, cat, 3);
    await store.appendToStream(`${uniqueCategory()}-${randomUUID()}`, [ev('Other')], 'no_stream');
    const head = await until(async () => {
      const h = await store.headPosition({ categories: [cat] });
      return h && comparePositions(h, feed[2]!.position) === 0 ? h : undefined;
    });
    t.same(comparePositions(head, feed[2]!.position), 0, 'the head is the last matching event, not the other category');
    t.equal(await store.countAfter(undefined, { categories: [cat] }, 10), 3);
    t.equal(await store.countAfter(feed[0]!.position, { categories: [cat] }, 10), 2, 'after a position');
    t.equal(await store.countAfter(undefined, { categories: [cat] }, 2), 2, 'capped');
    t.equal(await store.countAfter(feed[2]!.position, { categories: [cat] }, 10), 0, 'nothing after the head');
  });

  t.test('filters: types and categories together, and empty lists that match nothing', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const other = uniqueCategory();
    await store.appendToStream(`${cat}-${randomUUID()}`, [ev(`${cat}A`), ev(`${cat}B`)], 'no_stream');
    await store.appendToStream(`${other}-${randomUUID()}`, [ev(`${cat}A`)], 'no_stream');
    const feed = await feedOf(store, cat, 2);
    await feedOf(store, other, 1);
    const before = { commit: 0n, prepare: 0n };
    const both = await store.readAll({ after: before, filter: { eventTypes: [`${cat}A`], categories: [cat] }, maxCount: 1000 });
    t.same(
      both.events.map((e) => e.id),
      [feed[0]!.id],
      'both dimensions apply (AND)',
    );
    const noTypes = await store.readAll({ filter: { eventTypes: [], categories: [cat] }, maxCount: 1000 });
    t.same(noTypes.events, [], 'an empty type list matches nothing');
    const noCategories = await store.readAll({ filter: { categories: [] }, maxCount: 1000 });
    t.same(noCategories.events, [], 'an empty category list matches nothing');
  });

  t.test('the unfiltered feed carries no system ($) events', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const s = `${cat}-${randomUUID()}`;
    await store.appendToStream(s, [ev('A')], 'no_stream');
    const [first] = await feedOf(store, cat, 1);
    // From a little before our own event: whatever else the store holds, nothing is a system event.
    const page = await store.readAll({ maxCount: 500 });
    t.ok(page.events.length > 0);
    t.notOk(
      page.events.some((e) => e.streamId.startsWith('$') || e.type.startsWith('$')),
      'no $-stream or $-type event',
    );
    t.ok(first);
  });

  t.test('a multi-event append reports the position of its last event', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const r = await store.appendToStream(`${cat}-${randomUUID()}`, [ev('A'), ev('B'), ev('C')], 'no_stream');
    const feed = await feedOf(store, cat, 3);
    t.same(r.nextExpectedRevision, 2);
    t.same(comparePositions(r.position, feed[2]!.position), 0);
    t.ok(comparePositions(feed[0]!.position, feed[1]!.position) < 0 && comparePositions(feed[1]!.position, feed[2]!.position) < 0);
  });

  t.test('metadata and data round-trip unchanged through stream reads and the feed', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const metadata: EventMetadata & Record<string, unknown> = {
      tenantId: '00000000-0000-4000-8000-000000000002',
      actor: { apiKeyId: randomUUID(), employeeId: randomUUID() },
      correlationId: randomUUID(),
      causationId: randomUUID(),
      occurredAt: '2026-11-25T10:00:00.123Z',
      hash: 'a'.repeat(64),
      previousHash: 'b'.repeat(64),
    };
    const data = { text: 'Čćžšđ ÄÖÜ €', amount: '1234.56', nested: { list: [1, 'two', null, true] }, empty: {} };
    const event: NewEvent = { id: randomUUID(), type: 'Rich', data, metadata };
    await store.appendToStream(`${cat}-${randomUUID()}`, [event], 'no_stream');
    const [fromFeed] = await feedOf(store, cat, 1);
    const [fromStream] = await store.readStream(fromFeed!.streamId);
    for (const [name, got] of [
      ['feed', fromFeed],
      ['stream', fromStream],
    ] as const) {
      t.same(got!.id, event.id, `${name}: id`);
      t.same(got!.data, data, `${name}: data`);
      t.same(got!.metadata, metadata, `${name}: metadata, extra keys included`);
    }
  });

  t.test('a subscriber whose batch throws gets the same events again', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    await store.appendToStream(`${cat}-${randomUUID()}`, [ev('A'), ev('B')], 'no_stream');
    await feedOf(store, cat, 2);
    const batches: string[][] = [];
    const errors: unknown[] = [];
    const sub = store.subscribeToAll({
      filter: { categories: [cat] },
      onBatch: async (b) => {
        batches.push(b.map((e) => e.type));
        if (batches.length === 1) throw new Error('the subscriber failed once');
      },
      onError: (err) => errors.push(err),
    });
    t.teardown(() => sub.stop());
    await until(() => batches.length >= 2, 15_000);
    t.same(batches[1]![0], batches[0]![0], 'the retry starts where the failed batch started');
    t.same(batches.slice(1).flat(), ['A', 'B'], 'and nothing is lost');
    t.ok(errors.length >= 1, 'the failure was reported');
  });

  t.test('a subscriber whose batch throws mid-feed, one event a batch, gets the rest in order and once', async (t) => {
    // Behind the live end the PostgreSQL subscription reads the next page while a batch is applied;
    // that page must be dropped when the batch fails, and the feed read again from the last applied one.
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const types = ['A', 'B', 'C', 'D', 'E'];
    await store.appendToStream(
      `${cat}-${randomUUID()}`,
      types.map((type) => ev(type)),
      'no_stream',
    );
    await feedOf(store, cat, types.length);
    const batches: string[][] = [];
    const sub = store.subscribeToAll({
      filter: { categories: [cat] },
      batchSize: 1,
      onBatch: async (b) => {
        batches.push(b.map((e) => e.type));
        if (batches.length === 2) throw new Error('the second batch fails once');
      },
      onError: () => undefined,
    });
    t.teardown(() => sub.stop());
    await until(() => batches.flat().length >= types.length + 1, 15_000);
    await sleep(300); // a duplicate would come after the last expected batch
    const applied = batches.filter((_, i) => i !== 1).flat();
    t.same(batches[2], batches[1], 'the retry is the failed batch');
    t.same(applied, types, 'every event once, in order');
  });

  t.test('streamsOfRequest: the streams one request wrote after a position, by correlation id and tenant', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const before = await store.headPosition();
    const request = randomUUID();
    const of = (correlationId: string, tenantId?: string): NewEvent => {
      const e = ev('Done');
      return { ...e, metadata: { ...e.metadata, correlationId, ...(tenantId ? { tenantId } : {}) } };
    };
    const [a, b, c, d] = [1, 2, 3, 4].map(() => `${cat}-${randomUUID()}`);
    await store.appendToStream(a!, [of(request), of(request)], 'no_stream');
    await store.appendToStream(b!, [of(request)], 'no_stream');
    await store.appendToStream(c!, [of(randomUUID())], 'no_stream');
    await store.appendToStream(d!, [of(request, '00000000-0000-4000-8000-0000000000ff')], 'no_stream');
    const tenantId = ev('x').metadata.tenantId;
    const far = new Date(Date.now() + 3_600_000);
    const found = await store.streamsOfRequest({ after: before, correlationId: request, tenantId, until: far });
    t.same([...found].sort(), [a, b].sort(), 'each stream once; another request and another tenant are left out');
    const after = await store.headPosition();
    t.same(await store.streamsOfRequest({ after, correlationId: request, tenantId, until: far }), [], 'nothing after the head');
    t.same(
      await store.streamsOfRequest({ after: before, correlationId: request, tenantId, until: new Date(Date.now() - 3_600_000) }),
      [],
      'nothing recorded by the time given',
    );
  });
}
