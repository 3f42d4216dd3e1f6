// Peer benchmarks (issue 13): Emmett's PostgreSQL event store (a dev dependency of the bench only)
// side by side with our store, on the same server, in the same run:
//   a. append: 16 writers, each on its own stream, one realistic event (an expense added to an
//      entry) per append with its expected version; our store, Emmett's, and plain single-row
//      INSERTs into a table like es_events, in alternating order per round;
//   b. reading the whole log: our readAll paged 1,000 at a time against an Emmett consumer pulling
//      1,000 at a time from the beginning until nothing is left (events/s; each read its own log).
//   c. webhook deliveries: a backlog drained by one of our dispatcher worker processes
//      (bench/lib/webhook-dispatcher-worker.ts) against graphile-worker jobs making the same signed
//      POSTs (bench/peers/graphile-worker.ts) at the same concurrency, to the same local HTTPS sink.
// Each peer runs in a child process in a schema of its own, dropped at the end like ours.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { sql } from 'kysely';
import type { Db } from '../src/infra/database.js';
import { createPostgresEventStore } from '../src/eventstore/postgres/index.js';
import { categoryOf, type EventStore, type ExpectedRevision, type NewEvent, type Position } from '../src/eventstore/port.js';
import { DATABASE_URL, freshSchema, withSchema } from './lib/db.js';
import { sampleEvent } from './lib/seed.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { BenchContext, Benchmark, ResultRow } from './lib/types.js';
import { startHttpsSink, type HttpsSink } from './lib/https-sink.js';
import { sampleBody } from './webhooks.js';
import { createTenant } from '../src/tenancy/tenants.js';
import { secretBox } from '../src/infra/secrets.js';
import { insertSubscription } from '../src/webhooks/subscriptions/store.js';
import { generateSigningSecret } from '../src/webhooks/delivery/signature.js';

const WRITERS = 16;
const ROUND_SECONDS = Number(process.env.BENCH_PEERS_SECONDS ?? 2);
const emmettWorker = fileURLToPath(new URL('./peers/emmett-worker.ts', import.meta.url));
const graphileWorker = fileURLToPath(new URL('./peers/graphile-worker.ts', import.meta.url));
const dispatcherWorker = fileURLToPath(new URL('./lib/webhook-dispatcher-worker.ts', import.meta.url));
const DELIVERIES = Number(process.env.BENCH_PEERS_DELIVERIES ?? 5000);
const SUBSCRIPTIONS = 5;
const CONCURRENCY = 64; // the dispatcher's default slots

async function writersFor(seconds: number, op: (writer: number, i: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const counts = await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      let n = 0;
      while (performance.now() < deadline) await op(w, n++);
      return n;
    }),
  );
  return counts.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000);
}

function ourAppends(store: EventStore, template: NewEvent, seconds: number): Promise<number> {
  const streams = Array.from({ length: WRITERS }, () => ({ id: `travelEntry-${randomUUID()}`, expected: 'no_stream' as ExpectedRevision }));
  return writersFor(seconds, async (w) => {
    const s = streams[w]!;
    s.expected = (await store.appendToStream(s.id, [{ ...template, id: randomUUID() }], s.expected)).nextExpectedRevision;
  });
}

function plainInserts(pool: pg.Pool, template: NewEvent, seconds: number): Promise<number> {
  const streams = Array.from({ length: WRITERS }, () => `travelEntry-${randomUUID()}`);
  const data = JSON.stringify(template.data);
  const metadata = JSON.stringify(template.metadata);
  return writersFor(seconds, async (w, i) => {
    await pool.query(
      `insert into baseline_events (event_id, stream_id, category, revision, type, data, metadata) values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
      [randomUUID(), streams[w]!, categoryOf(streams[w]!), i, template.type, data, metadata],
    );
  });
}

async function ourReadAll(store: EventStore): Promise<{ rate: number; events: number }> {
  let after: Position | undefined;
  let events = 0;
  const started = performance.now();
  for (;;) {
    const page = await store.readAll({ after, maxCount: 1000 });
    events += page.events.length;
    after = page.lastPosition ?? after;
    if (page.isEnd || page.events.length === 0) break;
  }
  return { rate: events / ((performance.now() - started) / 1000), events };
}

/** Forks a bench child process and waits for its `ready`. */
async function forkReady(file: string, args: object): Promise<ChildProcess> {
  const child = fork(file, [JSON.stringify(args)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.send({ stop: true });
  await exited;
}

/** Time from `go` until the sink has `n` more requests. */
async function drain(child: ChildProcess, sink: HttpsSink, n: number): Promise<number> {
  const target = sink.count() + n;
  const started = performance.now();
  child.send({ go: true });
  await sink.waitForCount(target, 600_000);
  return n / ((performance.now() - started) / 1000);
}

/** c. Our dispatcher worker vs graphile-worker, the same backlog of signed POSTs to the same sink. */
async function deliveriesVsGraphile(ctx: BenchContext): Promise<ResultRow> {
  const sink = await startHttpsSink();
  const ours = await freshSchema({ poolSize: 4 });
  const peer = await freshSchema({ poolSize: 1, migrate: false });
  try {
    const secretsKey = randomBytes(32).toString('hex');
    const box = secretBox(Buffer.from(secretsKey, 'hex'));
    const tenant = await createTenant(ours.handle.db, { name: 'Peers bench d.o.o.', country: 'HR' });
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      await insertSubscription(ours.handle.db, {
        id: randomUUID(),
        tenantId: tenant.id,
        url: `${sink.url}sub-${i}`,
        eventTypes: ['employee.created'],
        secretSealed: box.seal(generateSigningSecret()),
      });
    }
    const body = sampleBody();
    const peerUrl = new URL(DATABASE_URL);
    const oursRates: number[] = [];
    const peerRates: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const worker = await forkReady(dispatcherWorker, { databaseUrl: DATABASE_URL, schema: ours.schema, secretsKey, ca: sink.ca });
      await insertBacklog(ours.handle.db, body, Math.ceil(DELIVERIES / SUBSCRIPTIONS));
      oursRates.push(await drain(worker, sink, Math.ceil(DELIVERIES / SUBSCRIPTIONS) * SUBSCRIPTIONS));
      await stopChild(worker);
      const gw = await forkReady(graphileWorker, {
        connectionString: peerUrl.toString(),
        schema: peer.schema,
        url: `${sink.url}graphile`,
        ca: sink.ca,
        jobs: DELIVERIES,
        concurrency: CONCURRENCY,
        secret: generateSigningSecret(),
        body: body.toString('utf8'),
      });
      peerRates.push(await drain(gw, sink, DELIVERIES));
      await stopChild(gw);
      ctx.log(`deliveries round ${r + 1}: ours ${Math.round(oursRates.at(-1)!)}/s, graphile-worker ${Math.round(peerRates.at(-1)!)}/s`);
    }
    return {
      figure: 'Webhook deliveries, one worker process vs graphile-worker doing the same signed POSTs',
      value: median(oursRates),
      unit: 'deliveries/s',
      baseline: { label: `graphile-worker 0.17 jobs, concurrency ${CONCURRENCY}`, value: median(peerRates), unit: 'POSTs/s' },
      target: undefined,
      notes: `a backlog of ${DELIVERIES} each; ours ${roundsNote(oursRates)}; graphile-worker ${roundsNote(peerRates)}`,
    };
  } finally {
    await peer.drop();
    await ours.drop();
    await sink.close();
  }
}

/** Due deliveries spread over the subscriptions, one statement. */
async function insertBacklog(db: Db, body: Buffer, perSubscription: number): Promise<void> {
  await sql`
    insert into webhook_deliveries (id, subscription_id, tenant_id, event_id, source_event_id, event_type, payload, status, next_attempt_at)
    select gen_random_uuid(), s.id, s.tenant_id, gen_random_uuid(), gen_random_uuid(), 'employee.created', ${body}, 'Pending', now()
    from generate_series(1, ${perSubscription}), webhook_subscriptions s`.execute(db);
}

interface Peer {
  ask<T>(message: object): Promise<T>;
  stop(): Promise<void>;
}

async function startEmmett(schema: string, template: NewEvent): Promise<Peer> {
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const child: ChildProcess = fork(
    emmettWorker,
    [
      JSON.stringify({
        connectionString: url.toString(),
        writers: WRITERS,
        type: template.type,
        data: template.data,
        metadata: template.metadata,
      }),
    ],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const next = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`the Emmett worker exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (m: T & { error?: string }) => {
        child.off('exit', onExit);
        if (m.error) reject(new Error(m.error));
        else resolve(m);
      });
    });
  await next();
  return {
    ask<T>(message: object) {
      const answer = next<T>();
      child.send(message);
      return answer;
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ stop: true });
      await exited;
    },
  };
}

export const peersBenchmark: Benchmark = {
  name: 'peers',
  description:
    "Emmett's PostgreSQL event store beside ours (append with 16 writers and plain INSERTs, reading the whole log); graphile-worker beside our webhook worker (the same signed POSTs)",
  async run(ctx: BenchContext): Promise<ResultRow[]> {
    return withSchema({ poolSize: WRITERS }, async (ours) => {
      // The peer's schema: empty (Emmett creates its own tables), dropped at the end.
      const peer = await freshSchema({ poolSize: 1, migrate: false });
      try {
        const store = createPostgresEventStore(ours.handle);
        const pool = ours.pool(WRITERS);
        await pool.query('create table baseline_events (like es_events including all)');
        const template = sampleEvent(randomUUID());
        const emmett = await startEmmett(peer.schema, template);
        const a = { ours: [] as number[], emmett: [] as number[], insert: [] as number[] };
        try {
          // Warm-up: connections, plans, JIT on every side.
          await ourAppends(store, template, 0.5);
          await emmett.ask({ append: 0.5 });
          await plainInserts(pool, template, 0.5);
          for (let r = 0; r < 2 * ROUNDS; r++) {
            const sides = [
              async () => a.ours.push(await ourAppends(store, template, ROUND_SECONDS)),
              async () => a.emmett.push((await emmett.ask<{ rate: number }>({ append: ROUND_SECONDS })).rate),
              async () => a.insert.push(await plainInserts(pool, template, ROUND_SECONDS)),
            ];
            for (let i = 0; i < sides.length; i++) await sides[(i + r) % sides.length]!();
            ctx.log(
              `append round ${r + 1}: ours ${Math.round(a.ours.at(-1)!)}/s, Emmett ${Math.round(a.emmett.at(-1)!)}/s, plain INSERT ${Math.round(a.insert.at(-1)!)}/s`,
            );
          }
          const readsOurs: number[] = [];
          const readsEmmett: number[] = [];
          let counts = '';
          for (let r = 0; r < ROUNDS; r++) {
            const o = await ourReadAll(store);
            const e = await emmett.ask<{ rate: number; events: number }>({ read: true });
            readsOurs.push(o.rate);
            readsEmmett.push(e.rate);
            counts = `ours ${o.events} events, Emmett ${e.events}`;
            ctx.log(
              `read round ${r + 1}: ours ${Math.round(o.rate)} events/s (${o.events}), Emmett ${Math.round(e.rate)} events/s (${e.events})`,
            );
          }
          const ratios = a.ours.map((v, i) => v / a.emmett[i]!);
          const deliveries = await deliveriesVsGraphile(ctx);
          return [
            deliveries,
            {
              figure: "Append vs Emmett's PostgreSQL event store, 16 writers on distinct streams",
              value: median(a.ours),
              unit: 'events/s',
              baseline: { label: 'Emmett 0.42 appendToStream, same events and writers', value: median(a.emmett), unit: 'events/s' },
              target: undefined,
              notes: `ours ${roundsNote(a.ours)}; Emmett ${roundsNote(a.emmett)}; same-round ratios ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
            },
            {
              figure: 'Append vs plain INSERT, same rounds as the Emmett figure',
              value: median(a.ours),
              unit: 'events/s',
              baseline: { label: 'plain single-row INSERT, 16 clients', value: median(a.insert), unit: 'rows/s' },
              target: undefined,
              notes: `plain INSERT ${roundsNote(a.insert)}`,
            },
            {
              figure: 'Reading the whole log vs an Emmett consumer, 1,000 per page',
              value: median(readsOurs),
              unit: 'events/s',
              baseline: { label: 'Emmett consumer from the beginning', value: median(readsEmmett), unit: 'events/s' },
              target: undefined,
              notes: `${counts}; ours ${roundsNote(readsOurs)}; Emmett ${roundsNote(readsEmmett)}`,
            },
          ];
        } finally {
          await emmett.stop();
          await store.close();
        }
      } finally {
        await peer.drop();
      }
    });
  },
};
