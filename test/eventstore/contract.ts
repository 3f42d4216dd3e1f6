// One behaviour, two adapters: every event-store adapter runs this suite. Each test writes to its
// own stream category, so the suite also runs against a shared EventStoreDB that cannot be reset.
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import {
  comparePositions,
  WrongExpectedVersionError,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
} from '../../src/eventstore/port.js';

export interface ContractSubject {
  store: EventStore;
  /** Opens an append transaction and keeps it open until commit() (only where writers run concurrently). */
  beginSlowAppend?: (streamId: string, events: NewEvent[]) => Promise<{ commit(): Promise<void> }>;
  /** A second store instance on the same data, as another process would see it. */
  reopen: () => Promise<EventStore>;
  /** What a reader ordering by insertion sequence alone (no snapshot bound) would see of a category. */
  naiveFeed?: (category: string) => Promise<{ type: string; sequence: number }[]>;
}

const tenantId = '00000000-0000-4000-8000-000000000001';

export function ev(type: string, data: Record<string, unknown> = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      tenantId,
      actor: { system: 'contract' },
      correlationId: randomUUID(),
      causationId: randomUUID(),
      occurredAt: new Date().toISOString(),
    },
  };
}

export const uniqueCategory = (): string => `ct${randomUUID().replace(/-/g, '').slice(0, 12)}`;

export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function readAllOfCategory(store: EventStore, category: string): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let after: Position | undefined;
  for (;;) {
    const page = await store.readAll({ after, filter: { categories: [category] }, maxCount: 100 });
    out.push(...page.events);
    after = page.lastPosition;
    if (page.isEnd) return out;
  }
}

/**
 * The category's feed once it shows at least `n` events. A committed event may stay out of the
 * global feed for a moment: the PostgreSQL adapter reads only below the oldest transaction still
 * open anywhere on the server (another test file's migration, say, when tap runs files in
 * parallel), which is lag by design, never loss. Wait for it, then assert on what was read.
 */
export async function feedOf(store: EventStore, category: string, n: number): Promise<RecordedEvent[]> {
  return until(async () => {
    const feed = await readAllOfCategory(store, category);
    return feed.length >= n ? feed : undefined;
  }).catch(async () => readAllOfCategory(store, category)); // the assertions below report the shortfall
}

export function eventStoreContract(t: Test, makeSubject: (t: Test) => Promise<ContractSubject>): void {
  t.test('append honours every kind of expected revision', async (t) => {
    const { store } = await makeSubject(t);
    const s = `${uniqueCategory()}-${randomUUID()}`;
    t.same((await store.appendToStream(s, [ev('A'), ev('B')], 'no_stream')).nextExpectedRevision, 1);
    await t.rejects(store.appendToStream(s, [ev('C')], 'no_stream'), WrongExpectedVersionError);
    await t.rejects(store.appendToStream(s, [ev('C')], 0), WrongExpectedVersionError);
    t.same((await store.appendToStream(s, [ev('C')], 1)).nextExpectedRevision, 2);
    t.same((await store.appendToStream(s, [ev('D')], 'stream_exists')).nextExpectedRevision, 3);
    t.same((await store.appendToStream(s, [ev('E')], 'any')).nextExpectedRevision, 4);
    const missing = `${uniqueCategory()}-${randomUUID()}`;
    await t.rejects(store.appendToStream(missing, [ev('A')], 'stream_exists'), WrongExpectedVersionError);
    await t.rejects(store.appendToStream(missing, [ev('A')], 3), WrongExpectedVersionError);
    t.same((await store.appendToStream(missing, [ev('A')], 'any')).nextExpectedRevision, 0);
  });

  t.test('a concurrency conflict reports the actual revision', async (t) => {
    const { store } = await makeSubject(t);
    const s = `${uniqueCategory()}-${randomUUID()}`;
    await store.appendToStream(s, [ev('A')], 'no_stream');
    const results = await Promise.allSettled([store.appendToStream(s, [ev('B')], 0), store.appendToStream(s, [ev('C')], 0)]);
    t.same(results.filter((r) => r.status === 'fulfilled').length, 1, 'exactly one writer wins');
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    t.type(lost.reason, WrongExpectedVersionError);
    t.same((lost.reason as WrongExpectedVersionError).actual, 1, 'the revision the winner left');
    t.same((await store.readStream(s)).length, 2);
  });

  t.test("concurrent 'any' and 'stream_exists' appends to one stream all land, each at its own revision", async (t) => {
    const { store } = await makeSubject(t);
    const s = `${uniqueCategory()}-${randomUUID()}`;
    await store.appendToStream(s, [ev('A')], 'no_stream');
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => store.appendToStream(s, [ev('B', { i }), ev('C', { i })], i % 2 ? 'any' : 'stream_exists')),
    );
    t.same(
      results.map((r) => r.nextExpectedRevision).sort((a, b) => a - b),
      Array.from({ length: 24 }, (_, i) => 2 + 2 * i),
      'every append got its own two revisions',
    );
    const stored = await store.readStream(s);
    t.same(stored.length, 49);
    for (let r = 1; r < stored.length; r += 2) {
      t.same(
        [stored[r]!.type, stored[r + 1]!.type, stored[r + 1]!.data],
        ['B', 'C', stored[r]!.data],
        `revisions ${r}-${r + 1}: one append, whole`,
      );
    }
  });

  t.test('re-appending the same event ids at the same expected revision is idempotent', async (t) => {
    const { store } = await makeSubject(t);
    const s = `${uniqueCategory()}-${randomUUID()}`;
    const batch = [ev('A'), ev('B')];
    const first = await store.appendToStream(s, batch, 'no_stream');
    const again = await store.appendToStream(s, batch, 'no_stream');
    t.same(again.nextExpectedRevision, first.nextExpectedRevision);
    t.same(comparePositions(again.position, first.position), 0, 'the original position is returned');
    const next = [ev('C')];
    await store.appendToStream(s, next, 1);
    await store.appendToStream(s, next, 1);
    t.same(
      (await store.readStream(s)).map((e) => e.type),
      ['A', 'B', 'C'],
      'nothing was stored twice',
    );
    await t.rejects(store.appendToStream(s, [ev('D'), next[0]!], 2), WrongExpectedVersionError, 'reused ids in a new batch conflict');
  });

  t.test('a stream reads forwards and backwards between revisions', async (t) => {
    const { store } = await makeSubject(t);
    const s = `${uniqueCategory()}-${randomUUID()}`;
    await store.appendToStream(
      s,
      ['A', 'B', 'C', 'D', 'E'].map((x) => ev(x, { x })),
      'no_stream',
    );
    const all = await store.readStream(s);
    t.same(
      all.map((e) => e.revision),
      [0, 1, 2, 3, 4],
    );
    t.same(all[2]!.data, { x: 'C' });
    t.same(all[0]!.metadata.tenantId, tenantId);
    t.ok(all.every((e) => e.streamId === s && e.recordedAt instanceof Date));
    t.same(
      (await store.readStream(s, { fromRevision: 1, toRevision: 3 })).map((e) => e.type),
      ['B', 'C', 'D'],
    );
    t.same(
      (await store.readStream(s, { direction: 'backwards' })).map((e) => e.type),
      ['E', 'D', 'C', 'B', 'A'],
    );
    t.same(
      (await store.readStream(s, { direction: 'backwards', fromRevision: 3, maxCount: 2 })).map((e) => e.type),
      ['D', 'C'],
    );
    t.same(await store.readStream(`${uniqueCategory()}-${randomUUID()}`), [], 'a missing stream reads empty');
  });

  t.test('the global feed reads from a position with type and category filters', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const other = uniqueCategory();
    const s1 = `${cat}-${randomUUID()}`;
    const s2 = `${cat}-${randomUUID()}`;
    await store.appendToStream(s1, [ev(`${cat}Opened`), ev(`${cat}Closed`)], 'no_stream');
    await store.appendToStream(`${other}-${randomUUID()}`, [ev(`${cat}Opened`)], 'no_stream');
    const r2 = await store.appendToStream(s2, [ev(`${cat}Opened`)], 'no_stream');
    const feed = await feedOf(store, cat, 3);
    t.same(
      feed.map((e) => `${e.streamId === s1 ? 1 : 2}:${e.type}`),
      [`1:${cat}Opened`, `1:${cat}Closed`, `2:${cat}Opened`],
    );
    t.same(comparePositions(feed[2]!.position, r2.position), 0, 'the append result names the event position');
    const after = await store.readAll({ after: feed[0]!.position, filter: { categories: [cat] } });
    t.same(
      after.events.map((e) => e.id),
      [feed[1]!.id, feed[2]!.id],
    );
    const byType = await store.readAll({ after: feed[0]!.position, filter: { eventTypes: [`${cat}Opened`] } });
    t.same(byType.events.length, 2, 'the type filter spans categories');
    t.ok(byType.events.every((e) => e.type === `${cat}Opened`));
  });

  t.test('per-stream order holds in the global feed under concurrent writers', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const streams = Array.from({ length: 4 }, () => `${cat}-${randomUUID()}`);
    // 16 writers race on 4 streams; each retries its append at the revision it finds.
    await Promise.all(
      Array.from({ length: 16 }, async (_, w) => {
        const s = streams[w % streams.length]!;
        for (let i = 0; i < 5; i++) {
          for (;;) {
            const last = (await store.readStream(s, { direction: 'backwards', maxCount: 1 }))[0];
            try {
              await store.appendToStream(s, [ev('Step', { w, i })], last ? last.revision : 'no_stream');
              break;
            } catch (e) {
              if (!(e instanceof WrongExpectedVersionError)) throw e;
            }
          }
        }
      }),
    );
    const feed = await feedOf(store, cat, 80);
    t.same(feed.length, 80);
    for (const s of streams) {
      const revisions = feed.filter((e) => e.streamId === s).map((e) => e.revision);
      t.same(
        revisions,
        [...revisions].sort((a, b) => a - b),
        `stream order holds in the feed for ${s}`,
      );
    }
    for (let i = 1; i < feed.length; i++) t.ok(comparePositions(feed[i - 1]!.position, feed[i]!.position) < 0);
  });

  t.test('an event whose transaction commits late is never skipped', async (t) => {
    const subject = await makeSubject(t);
    if (!subject.beginSlowAppend) {
      t.skip('writers commit in log order on this adapter: the race cannot happen', async () => undefined);
      return;
    }
    const { store } = subject;
    const cat = uniqueCategory();
    const seen: RecordedEvent[] = [];
    const sub = store.subscribeToAll({
      filter: { categories: [cat] },
      batchSize: 10,
      onBatch: async (b) => {
        seen.push(...b);
      },
    });
    t.teardown(() => sub.stop());
    // A takes its global position first and commits last; B commits in between.
    const slow = await subject.beginSlowAppend(`${cat}-${randomUUID()}`, [ev('Late')]);
    await store.appendToStream(`${cat}-${randomUUID()}`, [ev('Early')], 'no_stream');
    const naive = await subject.naiveFeed?.(cat);
    await new Promise((r) => setTimeout(r, 300));
    t.same(seen.length, 0, 'the reader waits below the oldest open transaction');
    await slow.commit();
    await until(() => seen.length >= 2);
    t.same(
      seen.map((e) => e.type),
      ['Late', 'Early'],
      'both arrive, in commit-safe order',
    );
    if (naive) {
      // The race is real: a sequence-ordered reader saw only the early commit, and the late event
      // sits below it, where a checkpoint on that reader would have passed it by for good.
      t.same(
        naive.map((e) => e.type),
        ['Early'],
      );
      const after = await subject.naiveFeed!(cat);
      t.ok(after.find((e) => e.type === 'Late')!.sequence < after.find((e) => e.type === 'Early')!.sequence);
    }
  });

  t.test('a catch-up subscription resumes from its checkpoint after a restart', async (t) => {
    const { store, reopen } = await makeSubject(t);
    const cat = uniqueCategory();
    const s = `${cat}-${randomUUID()}`;
    await store.appendToStream(s, [ev('A'), ev('B')], 'no_stream');
    let checkpoint: Position | undefined;
    const first: string[] = [];
    let caughtUp = false;
    const sub = store.subscribeToAll({
      filter: { categories: [cat] },
      onBatch: async (b, last) => {
        first.push(...b.map((e) => e.type));
        checkpoint = last;
      },
      onCaughtUp: () => {
        caughtUp = true;
      },
    });
    await until(() => first.length === 2 && caughtUp);
    await store.appendToStream(s, [ev('C')], 1);
    await until(() => first.length === 3);
    await sub.stop();
    await store.appendToStream(s, [ev('D'), ev('E')], 2);

    const restarted = await reopen();
    const second: string[] = [];
    const sub2 = restarted.subscribeToAll({
      after: checkpoint,
      filter: { categories: [cat] },
      onBatch: async (b) => {
        second.push(...b.map((e) => e.type));
      },
    });
    t.teardown(() => sub2.stop());
    await until(() => second.length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    t.same(first, ['A', 'B', 'C']);
    t.same(second, ['D', 'E'], 'resumes after the checkpoint, nothing twice, nothing lost');
  });

  t.test('a consumer group delivers at least once, retries, parks and replays', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const group = `g-${cat}`;
    await store.createConsumerGroup(group, { filter: { categories: [cat] }, maxRetryCount: 2, startFrom: 'start' });
    const s = `${cat}-${randomUUID()}`;
    await store.appendToStream(s, [ev('Ok'), ev('Flaky'), ev('Poison'), ev('Bad'), ev('Ignored'), ev('Last')], 'no_stream');
    const attempts: Record<string, number> = {};
    let poisonCured = false;
    const acked: string[] = [];
    const sub = store.subscribeToConsumerGroup(group, {
      consumerName: 'c1',
      handler: async ({ event, retryCount }) => {
        attempts[event.type] = (attempts[event.type] ?? 0) + 1;
        if (event.type === 'Flaky' && retryCount < 1) throw new Error('transient');
        if (event.type === 'Poison' && !poisonCured) return { nack: 'retry', reason: 'always fails' };
        if (event.type === 'Bad') return { nack: 'park', reason: 'cannot handle' };
        if (event.type === 'Ignored') return { nack: 'skip', reason: 'not for us' };
        acked.push(event.type);
      },
    });
    t.teardown(() => sub.stop());
    await until(() => acked.includes('Last'));
    t.same(acked, ['Ok', 'Flaky', 'Last']);
    t.same(attempts.Flaky, 2, 'a retried event comes back');
    t.same(attempts.Poison, 3, 'retried up to the retry limit, then parked');
    t.same(attempts.Bad, 1);
    const parked = await store.listParked(group);
    t.same(parked.length, 2);
    t.match(parked.map((p) => p.reason).sort(), ['always fails', 'cannot handle']);

    poisonCured = true;
    t.same((await store.replayParked(group)).length, 2, 'the replay names the two parked events');
    await until(() => acked.includes('Poison'));
    await until(async () => (await store.listParked(group)).length === 1);
    t.same((await store.listParked(group))[0]!.reason, 'cannot handle', 'a re-parked event stays parked');
  });

  t.test('a consumer group has one active owner and resumes after a restart', async (t) => {
    const { store, reopen } = await makeSubject(t);
    const cat = uniqueCategory();
    const group = `g-${cat}`;
    await store.createConsumerGroup(group, { filter: { categories: [cat] }, maxRetryCount: 3, startFrom: 'start' });
    const s = `${cat}-${randomUUID()}`;
    await store.appendToStream(s, [ev('A'), ev('B')], 'no_stream');
    const got: string[] = [];
    const one = store.subscribeToConsumerGroup(group, {
      consumerName: 'one',
      handler: async ({ event }) => {
        got.push(`one:${event.type}`);
      },
    });
    await until(() => got.length === 2);
    const other = await reopen();
    const two = other.subscribeToConsumerGroup(group, {
      consumerName: 'two',
      handler: async ({ event }) => {
        got.push(`two:${event.type}`);
      },
    });
    t.teardown(() => two.stop());
    await store.appendToStream(s, [ev('C')], 1);
    await until(() => got.length === 3);
    await new Promise((r) => setTimeout(r, 300));
    t.same(got, ['one:A', 'one:B', 'one:C'], 'the standby receives nothing while the owner is active');
    await one.stop();
    await store.appendToStream(s, [ev('D')], 2);
    await until(() => got.length === 4, 15_000);
    t.same(got[3], 'two:D', 'the standby takes over from the checkpoint: nothing acked comes back');
  });
}
