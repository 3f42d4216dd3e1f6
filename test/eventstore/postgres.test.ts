// The event-store contract on the PostgreSQL adapter: the machine's server when DATABASE_URL is
// set, the embedded PGlite otherwise (CI runs both).
import t, { type Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import { WrongExpectedVersionError } from '../../src/eventstore/port.js';
import { appendEvents } from '../../src/eventstore/postgres/append.js';
import { Wakeup } from '../../src/eventstore/postgres/wakeup.js';
import { openTestDatabase } from '../helpers/db.js';
import { ev, eventStoreContract, uniqueCategory, until, type ContractSubject } from './contract.js';
import { eventStoreFeedContract } from './contract-feed.js';
import { eventStoreGroupContract } from './contract-groups.js';

t.comment(`event store: ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'PGlite (embedded)'}`);

const openSubject = async (t: Test): Promise<ContractSubject> => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const subject: ContractSubject = {
    store,
    reopen: async () => {
      const again = createPostgresEventStore(handle);
      t.teardown(() => again.close());
      return again;
    },
  };
  if (handle.kind === 'postgres') {
    subject.beginSlowAppend = async (streamId, events) => {
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let appended!: () => void;
      const ready = new Promise<void>((r) => {
        appended = r;
      });
      const done = handle.db.transaction().execute(async (trx) => {
        await appendEvents(trx, streamId, events, 'no_stream');
        appended();
        await held;
      });
      await ready;
      return {
        commit: async () => {
          release();
          await done;
        },
      };
    };
    subject.naiveFeed = async (category) => {
      const r = await sql<{ type: string; global_position: number }>`
        select type, global_position from es_events where category = ${category} order by global_position`.execute(handle.db);
      return r.rows.map((x) => ({ type: x.type, sequence: Number(x.global_position) }));
    };
  }
  return subject;
};
for (const contract of [eventStoreContract, eventStoreFeedContract, eventStoreGroupContract]) contract(t, openSubject);

// The append is one statement, which reads with the snapshot it started with, even after it waited
// for the stream's lock. Here two appends wait behind an open one on the same stream, for certain
// (pg_locks shows them waiting): the one that expected no stream is a conflict, not a unique-violation
// error; the one that takes 'any' lands after it, through es_append, which reads after its lock.
t.test('appends that waited for the lock: a stale expectation is a conflict, any lands next', async (t) => {
  const { store, beginSlowAppend } = await openSubject(t);
  if (!beginSlowAppend) {
    t.skip('one connection on the embedded database: no append ever waits for another', async () => undefined);
    return;
  }
  const server = await openTestDatabase(t); // pg_locks is the server's: any database of it sees the waits
  const s = `${uniqueCategory()}-${randomUUID()}`;
  const slow = await beginSlowAppend(s, [ev('A')]);
  const stale = store.appendToStream(s, [ev('B')], 'no_stream');
  const any = store.appendToStream(s, [ev('C')], 'any');
  const settled = Promise.allSettled([stale, any]);
  await until(async () => {
    const r = await sql<{ n: number }>`
      select count(*)::int as n from pg_locks, (select hashtextextended(${s}, 0) as k) key
      where locktype = 'advisory' and not granted
        and classid::bigint = (key.k >> 32) & 4294967295 and objid::bigint = key.k & 4294967295`.execute(server.db);
    return r.rows[0]!.n === 2 || undefined;
  });
  await slow.commit();
  const [lost, landed] = await settled;
  t.equal(lost.status, 'rejected');
  t.type((lost as PromiseRejectedResult).reason, WrongExpectedVersionError, String((lost as PromiseRejectedResult).reason));
  t.same(
    [landed.status, (landed as PromiseFulfilledResult<{ nextExpectedRevision: number }>).value?.nextExpectedRevision],
    ['fulfilled', 1],
  );
  t.same(
    (await store.readStream(s)).map((e) => e.type),
    ['A', 'C'],
  );
});

// Regression: the feed must order by the xid8 column, not by its text rendering ('100' < '99' as
// text). Two rows written with explicit, long-finished transaction ids that differ in digit count;
// the one with the larger id goes in first, so sequence order and text order both disagree with xid order.
t.test('feed order follows transaction ids numerically', async (t) => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const cat = `xid${Date.now()}`;
  const insert = (txId: number, type: string) =>
    sql`
    insert into es_events (tx_id, event_id, stream_id, category, revision, type, data, metadata)
    values (${String(txId)}::xid8, ${crypto.randomUUID()}::uuid, ${`${cat}-${type}`}, ${cat}, 0, ${type}, '{}', '{}')`.execute(handle.db);
  await insert(100, 'Later');
  await insert(99, 'Earlier');
  const page = await store.readAll({ filter: { categories: [cat] } });
  t.same(
    page.events.map((e) => [e.type, e.position.commit]),
    [
      ['Earlier', 99n],
      ['Later', 100n],
    ],
  );
  t.same((await store.headPosition({ categories: [cat] }))?.commit, 100n, 'the head is the larger transaction id');
  const after = await store.readAll({ after: page.events[0]!.position, filter: { categories: [cat] } });
  t.same(
    after.events.map((e) => e.type),
    ['Later'],
  );
});

// A subscription stopped from inside its own last batch aborts before it starts waiting; the wait
// must then return at once instead of sleeping out the poll interval (a rebuild paid 500 ms for it).
t.test('a wake-up wait on an already-aborted signal returns at once', async (t) => {
  const handle = await openTestDatabase(t);
  const wakeup = new Wakeup(handle);
  t.teardown(() => wakeup.close());
  const aborted = AbortSignal.abort();
  const outcome = await Promise.race([
    wakeup.wait(60_000, aborted).then(() => 'returned'),
    new Promise((r) => setTimeout(r, 2_000, 'still waiting')),
  ]);
  t.equal(outcome, 'returned');
});

const at = (n: number) => ({ commit: BigInt(1000 + n), prepare: BigInt(n) });

// In-process appends say what they wrote, so a subscriber whose filter excludes it stays asleep
// (no empty feed read); a NOTIFY from another process says nothing and wakes everyone.
t.test('a wake-up reaches only the waits whose filter it concerns', async (t) => {
  const handle = await openTestDatabase(t);
  const wakeup = new Wakeup(handle);
  t.teardown(() => wakeup.close());
  const state = (p: Promise<void>) => Promise.race([p.then(() => 'woken'), new Promise((r) => setImmediate(r, 'asleep'))]);
  const byCategory = wakeup.wait(60_000, undefined, { categories: ['travelEntry'] });
  // An event-type filter may take only part of an append, so it never sleeps through one.
  const byType = wakeup.wait(60_000, undefined, { eventTypes: ['EmployeeRegistered'] });
  const bothKinds = wakeup.wait(60_000, undefined, { categories: ['employee'], eventTypes: ['EmployeeRegistered'] });
  const unfiltered = wakeup.wait(60_000);
  wakeup.notify({ category: 'entryNumbers', types: ['EntryNumberReserved'], position: at(1) });
  t.same(
    [await state(byCategory), await state(byType), await state(bothKinds), await state(unfiltered)],
    ['asleep', 'woken', 'woken', 'woken'],
  );
  wakeup.notify({ category: 'travelEntry', types: ['TravelEntryCreated'], position: at(2) });
  t.equal(await state(byCategory), 'woken');
  const anyNews = wakeup.wait(60_000, undefined, { categories: ['payoutBatch'] });
  wakeup.notify();
  t.equal(await state(anyNews), 'woken', 'a wake-up without details (a NOTIFY) wakes every filter');
});

// A filtered sleep must not miss its own event: one appended here but not yet read (invisible to
// the last read, or appended during it) turns the long filtered wait into a short re-read.
t.test('a subscriber behind an event it takes re-reads soon, whatever wakes it', async (t) => {
  const handle = await openTestDatabase(t);
  const wakeup = new Wakeup(handle);
  t.teardown(() => wakeup.close());
  const filter = { categories: ['travelEntry'] };
  wakeup.notify({ category: 'travelEntry', types: ['TravelEntryCreated'], position: at(5) });
  t.ok(wakeup.pendingFor(filter, at(4)), 'behind the appended event');
  t.notOk(wakeup.pendingFor(filter, at(5)), 'read up to it');
  t.notOk(wakeup.pendingFor({ categories: ['employee'] }, at(1)), 'nothing appended in that category');
  t.ok(wakeup.pendingFor(undefined, at(4)), 'an unfiltered subscriber is behind too');
  t.notOk(wakeup.pendingFor({ eventTypes: ['TravelEntryCreated'] }, undefined), 'event-type filters never sleep, so are never pending');
  const outcome = await Promise.race([
    wakeup.idle(60_000, undefined, filter, at(4)).then(() => 'read again'),
    new Promise((r) => setTimeout(r, 2_000, 'still asleep')),
  ]);
  t.equal(outcome, 'read again', 'no wake-up at all was needed: the settle interval re-reads');
  const upToDate = wakeup.idle(60_000, undefined, filter, at(5));
  wakeup.notify({ category: 'entryNumbers', types: ['EntryNumberReserved'], position: at(6) });
  const slept = await Promise.race([upToDate.then(() => 'woken'), new Promise((r) => setTimeout(r, 100, 'asleep'))]);
  t.equal(slept, 'asleep', 'an up-to-date subscriber sleeps through appends it does not take');
  wakeup.notify({ category: 'travelEntry', types: ['TravelEntryCreated'], position: at(7) });
  await upToDate;
});

// Another process's event can be hidden behind one of our own running appends of any category; our
// append's commit is then when it shows, so for a while after a foreign NOTIFY every in-process
// wake-up wakes every subscriber.
t.test(
  'after a NOTIFY from another process, in-process wake-ups wake every filter',
  { skip: !process.env.DATABASE_URL && 'no other process on the embedded database' },
  async (t) => {
    const handle = await openTestDatabase(t);
    // A channel of its own: other test files append (and NOTIFY es_events) on the same server.
    const channel = `es_events_${randomBytes(4).toString('hex')}`;
    const wakeup = new Wakeup(handle, 'this-store', channel);
    t.teardown(() => wakeup.close());
    wakeup.ensureListening();
    const state = (p: Promise<void>) => Promise.race([p.then(() => 'woken'), new Promise((r) => setTimeout(r, 50, 'asleep'))]);
    // Our own NOTIFY (our origin) changes nothing: a category filter still sleeps through other categories.
    for (const deadline = Date.now() + 20_000; !wakeup.listening && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
    await sql`select pg_notify(${channel}, 'this-store')`.execute(handle.db);
    await new Promise((r) => setTimeout(r, 100));
    const before = wakeup.wait(60_000, undefined, { categories: ['travelEntry'] });
    wakeup.notify({ category: 'entryNumbers', types: ['EntryNumberReserved'], position: at(1) });
    t.equal(await state(before), 'asleep', 'own NOTIFY: filters apply');
    await sql`select pg_notify(${channel}, 'another-store')`.execute(handle.db);
    t.equal(await state(before), 'woken', 'the foreign NOTIFY itself wakes everyone');
    const after = wakeup.wait(60_000, undefined, { categories: ['travelEntry'] });
    wakeup.notify({ category: 'entryNumbers', types: ['EntryNumberReserved'], position: at(2) });
    t.equal(await state(after), 'woken', 'within the window, an unrelated in-process append wakes it too');
  },
);

// The consumer group extends its lease with each checkpoint write instead of claiming per page
// (consumer-group.ts); that write also reports replay requests, so a busy consumer replays them
// before its next page, not at its next claim (seconds later).
/** A consumer group over a category of its own, parking at the first refusal, and a stream in it. */
async function parkingGroup(t: Test) {
  const { store } = await openSubject(t);
  const cat = uniqueCategory();
  const group = `g-${cat}`;
  await store.createConsumerGroup(group, { filter: { categories: [cat] }, maxRetryCount: 0, startFrom: 'start' });
  return { store, group, stream: `${cat}-${randomUUID()}` };
}

t.test('a busy consumer group replays parked events before its next page', async (t) => {
  const { store, group, stream } = await parkingGroup(t);
  await store.appendToStream(stream, [ev('Bad')], 'no_stream');
  let cured = false;
  const acked: string[] = [];
  const sub = store.subscribeToConsumerGroup(group, {
    consumerName: 'c',
    handler: async ({ event }) => {
      if (event.type === 'Bad' && !cured) return { nack: 'park', reason: 'not yet' };
      acked.push(event.type);
    },
  });
  t.teardown(() => sub.stop());
  await until(async () => (await store.listParked(group)).length === 1);

  // Ticks keep every page busy (no idle poll, whose claim would see the request anyway).
  let writing = true;
  let revision = 0;
  const writer = (async () => {
    while (writing) {
      await store.appendToStream(stream, [ev('Tick')], revision++);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await until(() => acked.filter((x) => x === 'Tick').length >= 20);
  cured = true;
  const [parked] = await store.listParked(group);
  const ticksAtRequest = acked.length;
  t.same(await store.replayParked(group), [parked!.eventId]);
  await until(() => acked.includes('Bad'));
  writing = false;
  await writer;
  const ticksBetween = acked.indexOf('Bad') - ticksAtRequest;
  t.ok(
    ticksBetween <= 20,
    `replayed within a page or two of the request (${ticksBetween} ticks between; a claim 5 s later would be hundreds)`,
  );
  // The handler has taken it; its parked row goes in the statement after (consumer-group.ts), so
  // wait for that as the test below does (a loaded full suite once read it a moment before).
  await until(async () => (await store.listParked(group)).length === 0);
  t.same(await store.listParked(group), [], 'nothing parked any more');
});

// A busy consumer does not claim per page (consumer-group.ts); it claims again once RENEW_AFTER_MS
// (5 s) has passed since its last claim, and that claim is when changed settings are
// seen. Here the group's filter narrows while events of both categories keep coming: within a few
// seconds the consumer stops taking the category the filter dropped.
t.test('a busy consumer group sees its changed settings within seconds', async (t) => {
  const { store } = await openSubject(t);
  const ticks = uniqueCategory();
  const marks = uniqueCategory();
  const group = `g-${ticks}`;
  const settings = (categories: string[]) => ({ filter: { categories }, maxRetryCount: 0, startFrom: 'start' as const });
  await store.createConsumerGroup(group, settings([ticks, marks]));
  const seen = new Set<string>();
  const sub = store.subscribeToConsumerGroup(group, {
    consumerName: 'c',
    handler: async ({ event }) => {
      seen.add(`${event.type}:${String((event.data as { n: number }).n)}`);
    },
  });
  t.teardown(() => sub.stop());

  const tickStream = `${ticks}-${randomUUID()}`;
  const markStream = `${marks}-${randomUUID()}`;
  let writing = true;
  let n = 0;
  const writer = (async () => {
    for (; writing; n++) {
      const expected = n === 0 ? 'no_stream' : n - 1;
      await store.appendToStream(tickStream, [ev('Tick', { n })], expected);
      await store.appendToStream(markStream, [ev('Mark', { n })], expected);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await until(() => seen.has('Mark:5'));
  await store.createConsumerGroup(group, settings([ticks]));
  // Past the renewal period and a page or two more, with the consumer busy all along.
  await new Promise((r) => setTimeout(r, 7_000));
  writing = false;
  await writer;
  const last = n - 1;
  await until(() => seen.has(`Tick:${last}`));
  t.ok(seen.has('Mark:5'), 'marks were taken before the change');
  t.notOk(seen.has(`Mark:${last}`), `the mark written 7 s after the change (${last}) was not taken: the narrowed filter was seen`);
});

// Replays go a batch of 100 at a time (consumer-group.ts): more parked events than that all come back.
t.test('a replay of more parked events than one batch delivers them all', async (t) => {
  const { store, group, stream } = await parkingGroup(t);
  const parkedCount = 150;
  await store.appendToStream(
    stream,
    Array.from({ length: parkedCount }, (_, i) => ev('Bad', { i })),
    'no_stream',
  );
  let cured = false;
  const taken = new Set<number>();
  const sub = store.subscribeToConsumerGroup(group, {
    consumerName: 'c',
    handler: async ({ event }) => {
      if (!cured) return { nack: 'park', reason: 'not yet' };
      taken.add((event.data as { i: number }).i);
    },
  });
  t.teardown(() => sub.stop());
  await until(async () => (await store.listParked(group)).length === parkedCount);
  cured = true;
  t.equal((await store.replayParked(group)).length, parkedCount, 'all asked for');
  t.ok(await until(() => taken.size === parkedCount), 'each parked event delivered again'); // else until throws
  await until(async () => (await store.listParked(group)).length === 0);
  t.same(await store.listParked(group), [], 'nothing parked any more');
});
