// The projection runner on a real database: rows and checkpoint in one transaction (a failing
// batch leaves neither), exactly-once effect with two runners at once, visible lag, and a rebuild
// from position zero that reproduces the same rows.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { sql } from 'kysely';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';
import type { RecordedEvent } from '../../src/eventstore/port.js';
import { ProjectionRunner } from '../../projections/runner.js';
import type { Projection } from '../../projections/projection.js';
import { openTestDatabase } from '../helpers/db.js';

const logger = pino({ level: 'silent' });

async function until(probe: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ev = (tenantId: string, type = 'Ticked') => ({
  id: randomUUID(),
  type,
  data: {},
  metadata: { tenantId, actor: { system: 'test' }, correlationId: 'c', causationId: 'c', occurredAt: new Date().toISOString() },
});

t.test('projection runner', async (t) => {
  const handle = await openTestDatabase(t);
  const { db } = handle;
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  await sql`create table tick_counts (stream_id text primary key, n int not null)`.execute(db);
  let failNext = false;
  // Deliberately NOT idempotent: a second application of any event would show in the counts.
  const ticks: Projection = {
    name: 'ticks',
    filter: { categories: ['tick'] },
    tables: ['tick_counts'],
    async apply(trx, events: RecordedEvent[]) {
      for (const e of events) {
        await sql`insert into tick_counts (stream_id, n) values (${e.streamId}, 1) on conflict (stream_id) do update set n = tick_counts.n + 1`.execute(
          trx,
        );
      }
      if (failNext) {
        failNext = false;
        throw new Error('projection failed mid-batch');
      }
    },
  };
  const total = async () =>
    Number((await sql<{ s: number }>`select coalesce(sum(n), 0)::int as s from tick_counts`.execute(db)).rows[0]!.s);
  const tenant = randomUUID();
  const streams = Array.from({ length: 5 }, () => `tick-${randomUUID()}`);
  for (const s of streams)
    await store.appendToStream(
      s,
      Array.from({ length: 40 }, () => ev(tenant)),
      'no_stream',
    );

  const one = new ProjectionRunner({ db, store, logger, projections: [ticks] });
  // Lag counts the events visible in the feed, which on PostgreSQL trails the commits while any
  // older transaction on the server is still open (a parallel test file's migration): wait for all 200.
  await until(async () => (await one.status())[0]?.lag === 200).catch(() => undefined);
  t.match(await one.status(), [{ name: 'ticks', lag: 200, position: null }], 'lag is visible before the projection runs');

  t.test('a failing batch applies nothing and is retried from the same position', async (t) => {
    failNext = true;
    await one.start();
    await until(async () => (await total()) === 200);
    await new Promise((r) => setTimeout(r, 300));
    t.equal(await total(), 200, 'the failed batch left no rows behind: each event counted once');
    t.match(await one.status(), [{ lag: 0, eventsProcessed: 200 }]);
  });

  t.test('two runners at once: every event still takes effect exactly once', async (t) => {
    const two = new ProjectionRunner({ db, store, logger, projections: [ticks] });
    await two.start();
    t.teardown(() => two.stop());
    await Promise.all(
      streams.map((s) =>
        store.appendToStream(
          s,
          Array.from({ length: 20 }, () => ev(tenant)),
          39,
        ),
      ),
    );
    await until(async () => (await total()) >= 300);
    await new Promise((r) => setTimeout(r, 500));
    t.equal(await total(), 300);
    t.match(await two.status(), [{ lag: 0, eventsProcessed: 300 }]);
    const p = (await store.readAll({ filter: { categories: ['tick'] }, maxCount: 1000 })).lastPosition!;
    t.ok(await two.waitFor('ticks', p, 2000), 'read-your-writes wait resolves once applied');
  });

  t.test('a rebuild from position zero reproduces the rows', async (t) => {
    const before = (await sql<{ stream_id: string; n: number }>`select * from tick_counts order by stream_id`.execute(db)).rows;
    let lastProgress = [0, 0];
    const result = await one.rebuild('ticks', (done, all) => {
      lastProgress = [done, all];
    });
    t.same(result.events, 300);
    t.same(lastProgress, [300, 300]);
    await new Promise((r) => setTimeout(r, 500));
    const after = (await sql<{ stream_id: string; n: number }>`select * from tick_counts order by stream_id`.execute(db)).rows;
    t.same(after, before, 'same rows after the rebuild (and the other runner did not double them)');
    await one.stop();
  });
});

t.test('a wait in a runner that lost the batch to another runner resolves when the other applies it', async (t) => {
  // The review (session 26): the wait listened only for its own runner's batches, so with a second
  // projector applying first it ran to its timeout (5 s on every write, and a false 503 from the
  // read-model gate) although the read model was caught up.
  const handle = await openTestDatabase(t);
  const { db } = handle;
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  await sql`create table tock_counts (stream_id text primary key, n int not null)`.execute(db);
  const tocks: Projection = {
    name: 'tocks',
    filter: { categories: ['tock'] },
    tables: ['tock_counts'],
    async apply(trx, events: RecordedEvent[]) {
      for (const e of events) await sql`insert into tock_counts (stream_id, n) values (${e.streamId}, 1)`.execute(trx);
    },
  };
  // This runner never applies a batch itself: every one it tries fails, so the other one's work is
  // the only way its wait can end.
  const losing: Projection = {
    ...tocks,
    apply() {
      return Promise.reject(new Error('this runner loses every batch'));
    },
  };
  const waiting = new ProjectionRunner({ db, store, logger, projections: [losing] });
  const applying = new ProjectionRunner({ db, store, logger, projections: [tocks] });
  await waiting.start();
  await applying.start();
  t.teardown(() => Promise.all([waiting.stop(), applying.stop()]));
  const { position } = await store.appendToStream(`tock-${randomUUID()}`, [ev(randomUUID(), 'Tocked')], 'no_stream');
  const stillWaiting = new Promise<string>((r) => setTimeout(() => r('still waiting after 10 s'), 10_000));
  t.equal(
    await Promise.race([waiting.waitFor('tocks', position, 30_000), stillWaiting]),
    true,
    'the wait ends once the other runner applied it',
  );
  t.equal(
    Number((await sql<{ n: number }>`select count(*)::int as n from tock_counts`.execute(db)).rows[0]!.n),
    1,
    'applied once, by the other runner',
  );
});
