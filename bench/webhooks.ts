// Webhook delivery benchmarks (issue 4), on the real PostgreSQL, with a webhooks worker process
// (ROLE webhooks: catalog projector and dispatcher; the API and the read-model projections, which
// are not on the delivery path, run elsewhere in production) and a local HTTPS sink with a
// self-signed certificate in a child process of its own, all on 127.0.0.1. Events go through the
// real write path: for the throughput figures they are committed in the worker's process before
// the clock starts; for the latency figure a writer child process commits them at the offered rate,
// as an API process would:
//   1. deliveries per second from committed events to the sink (keep-alive), next to a baseline
//      measured in the same run: the same POSTs (same bytes and headers) from a plain keep-alive
//      HTTPS client at the dispatcher's concurrency;
//   2. p50 and p99 from event commit to receipt at a fixed offered load (200 events/s, 5 subscriptions);
//   3. first-attempt throughput with 100,000 retries waiting, against the same rate without them,
//      measured in alternating rounds on the same table (issue 13: the earlier figure compared later
//      rounds, on a table grown by every round before, with the first ones);
//   4. (issue 13) one vs two worker processes (bench/lib/webhook-dispatcher-worker.ts) draining the
//      same backlog, with the CPU each delivery costs on this machine, and the time until a worker
//      killed with SIGKILL mid-drain has its leases taken over by the other.
// Run alone: `npx tsx bench/webhooks.ts` (or add `webhooksBenchmark` to BENCHMARKS in bench/run.ts).
import https from 'node:https';
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { sql } from 'kysely';
import { loadConfig } from '../src/config/config.js';
import { createRuntime, type Runtime } from '../src/main/runtime.js';
import { createTenant } from '../src/tenancy/tenants.js';
import { handleCommand } from '../src/application/command-handler.js';
import { employeeDecider, streamName } from '../src/domain/employees/index.js';
import { webhookEventGuid } from '../src/webhooks/catalog/event-id.js';
import { insertSubscription } from '../src/webhooks/subscriptions/store.js';
import { generateSigningSecret } from '../src/webhooks/delivery/signature.js';
import { buildDeliveryHeaders } from '../src/webhooks/delivery/headers.js';
import { startCatalogProjector } from '../src/webhooks/catalog/projector.js';
import type { Subscription } from '../src/eventstore/port.js';
import { DATABASE_URL, freshSchema } from './lib/db.js';
import { startHttpsSink, type HttpsSink } from './lib/https-sink.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { BenchContext, Benchmark, ResultRow } from './lib/types.js';

const SUBSCRIPTIONS = 5;
const BURST_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000); // x5 deliveries per round
const OFFERED_EVENTS_PER_SEC = Number(process.env.BENCH_WEBHOOK_RATE ?? 200);
const LATENCY_SECONDS = Number(process.env.BENCH_WEBHOOK_LATENCY_SECONDS ?? 10);
const WAITING_RETRIES = 100_000;
const CONCURRENCY = 64; // the dispatcher's default slots
const DRAIN_DELIVERIES = Number(process.env.BENCH_WEBHOOK_DRAIN ?? 10_000);
const writerWorker = fileURLToPath(new URL('./lib/event-writer-worker.ts', import.meta.url));
const dispatcherWorker = fileURLToPath(new URL('./lib/webhook-dispatcher-worker.ts', import.meta.url));

interface WebhookBenchApp {
  rt: Runtime;
  schema: string;
  tenantId: string;
  secretsKey: string;
  sink: HttpsSink;
  /** The catalog projector the benchmark controls (the process's own one is stopped at start). */
  projector: Subscription | undefined;
  close(): Promise<void>;
}

async function startApp(): Promise<WebhookBenchApp> {
  // 12, not 20: the worker processes of the issue-13 figures need server slots of their own.
  const s = await freshSchema({ poolSize: 12 });
  const sink = await startHttpsSink();
  const secretsKey = randomBytes(32).toString('hex');
  const config = loadConfig({
    DATABASE_URL,
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    RATES_FETCH: 'off',
    ROLE: 'webhooks',
    SECRETS_KEY: secretsKey,
    WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
  });
  const rt = await createRuntime(config, {
    handle: s.handle,
    startWork: true,
    logger: pino({ level: 'silent' }),
    webhookTrustForTesting: [sink.ca],
  });
  const tenant = await createTenant(s.handle.db, { name: 'Webhook bench d.o.o.', country: 'HR' });
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    await insertSubscription(s.handle.db, {
      id: randomUUID(),
      tenantId: tenant.id,
      url: `${sink.url}sub-${i}`,
      eventTypes: ['employee.created'],
      secretSealed: rt.secrets.seal(generateSigningSecret()),
    });
  }
  await rt.background!.webhooks!.projector.stop();
  const app: WebhookBenchApp = {
    rt,
    schema: s.schema,
    tenantId: tenant.id,
    secretsKey,
    sink,
    projector: undefined,
    async close() {
      await app.projector?.stop();
      await rt.close();
      await sink.close();
      await s.drop();
    },
  };
  return app;
}

/** Registers one employee through the real write path; returns the domain event id and when its append committed. */
async function commitEvent(app: WebhookBenchApp, i: number): Promise<{ eventId: string; committedAt: number }> {
  const employeeId = randomUUID();
  const r = await handleCommand(app.rt.store, {
    streamId: streamName(employeeId),
    decider: employeeDecider,
    command: {
      type: 'RegisterEmployee',
      data: { employeeId, fields: { firstName: `Bench${i}`, lastName: 'Webhook' }, customFieldDefinitions: [] },
    },
    context: { tenantId: app.tenantId, now: new Date().toISOString(), newId: randomUUID, actor: { system: 'bench' } },
    correlationId: randomUUID(),
  });
  return { eventId: r.events[0]!.id, committedAt: Date.now() };
}

/**
 * Deliveries per second from committed events: `events` events are committed first, with the catalog
 * projector stopped (the write path has its own benchmark), then the projector starts and the clock
 * runs until the sink has received every delivery.
 */
async function deliveryRate(app: WebhookBenchApp, events: number): Promise<number> {
  await app.projector?.stop();
  app.projector = undefined;
  const target = app.sink.count() + events * SUBSCRIPTIONS;
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < events) await commitEvent(app, next++);
    }),
  );
  const started = performance.now();
  app.projector = await startCatalogProjector({
    db: app.rt.handle.db,
    store: app.rt.store,
    logger: app.rt.logger,
    wakeup: app.rt.delivery.wakeup,
  });
  await app.sink.waitForCount(target, 120_000);
  return (events * SUBSCRIPTIONS) / ((performance.now() - started) / 1000);
}

/** An employee.created envelope as the catalog projector stores it. */
export function sampleBody(): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: `evt_${randomBytes(16).toString('hex')}`,
      type: 'employee.created',
      createdAt: new Date().toISOString(),
      data: {
        id: randomUUID(),
        firstName: 'Bench',
        lastName: 'Webhook',
        position: null,
        departmentId: null,
        status: 'Active',
        isAccountOwner: false,
        isArchived: false,
        createdAt: new Date().toISOString(),
        editedAt: new Date().toISOString(),
        resourceVersion: 0,
      },
    }),
  );
}

/** The same POSTs from a plain keep-alive HTTPS client at the dispatcher's concurrency. */
async function baselineRate(sink: HttpsSink, requests: number): Promise<number> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = sampleBody();
  const secret = generateSigningSecret();
  const url = new URL(`${sink.url}baseline`);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < requests) {
        const headers = {
          ...buildDeliveryHeaders({
            body,
            secrets: [secret],
            eventType: 'employee.created',
            eventId: randomUUID(),
            deliveryId: randomUUID(),
          }),
          'Content-Length': String(body.length),
        };
        await new Promise<void>((resolve, reject) => {
          const req = https.request(
            { hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, ca: sink.ca, headers },
            (res) => {
              res.resume();
              res.on('end', resolve);
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      }
    }),
  );
  const rate = requests / ((performance.now() - started) / 1000);
  agent.destroy();
  return rate;
}

/**
 * Commit-to-receipt latencies (ms) of every delivery at a fixed offered event rate. The events are
 * committed by a writer in a child process (bench/lib/event-writer-worker.ts), as an API process
 * would; commit and receipt times are both Date.now() (the clock two processes share).
 */
async function latencyAtLoad(app: WebhookBenchApp): Promise<number[]> {
  app.projector ??= await startCatalogProjector({
    db: app.rt.handle.db,
    store: app.rt.store,
    logger: app.rt.logger,
    wakeup: app.rt.delivery.wakeup,
  });
  const committed = new Map<string, number>();
  const arrived = new Map<string, number[]>();
  const stop = app.sink.onRequest((eventGuid, at) => {
    const list = arrived.get(eventGuid) ?? [];
    list.push(at);
    arrived.set(eventGuid, list);
  });
  const total = OFFERED_EVENTS_PER_SEC * LATENCY_SECONDS;
  const child = fork(
    writerWorker,
    [
      JSON.stringify({
        databaseUrl: DATABASE_URL,
        schema: app.schema,
        tenantId: app.tenantId,
        rate: OFFERED_EVENTS_PER_SEC,
        seconds: LATENCY_SECONDS,
      }),
    ],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: { commits?: [string, number][]; done?: boolean }) => {
      for (const [id, at] of m.commits ?? []) committed.set(webhookEventGuid(id), at);
      if (m.done) resolve();
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`event writer exited with ${code}`))));
  });
  const deadline = performance.now() + 30_000;
  const count = (): number => [...arrived.values()].reduce((n, l) => n + l.length, 0);
  while (count() < total * SUBSCRIPTIONS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  stop();
  const latencies: number[] = [];
  for (const [guid, ats] of arrived) {
    const c = committed.get(guid);
    if (c !== undefined) for (const at of ats) latencies.push(at - c);
  }
  return latencies.sort((a, b) => a - b);
}

/** Inserts `n` deliveries due now, spread over the subscriptions, in one statement (a backlog). */
async function insertBacklog(app: WebhookBenchApp, n: number): Promise<void> {
  await sql`
    insert into webhook_deliveries (id, subscription_id, tenant_id, event_id, source_event_id, event_type, payload, status, next_attempt_at)
    select gen_random_uuid(), s.id, s.tenant_id, gen_random_uuid(), gen_random_uuid(), 'employee.created', ${sampleBody()}, 'Pending', now()
    from generate_series(1, ${Math.ceil(n / SUBSCRIPTIONS)}), webhook_subscriptions s`.execute(app.rt.handle.db);
}

/** Moves the 100,000 waiting retries in (true) or out (false): a table of their own keeps them between rounds. */
async function setRetriesWaiting(app: WebhookBenchApp, waiting: boolean): Promise<void> {
  const db = app.rt.handle.db;
  if (waiting) {
    await sql`insert into webhook_deliveries select * from bench_waiting_retries on conflict do nothing`.execute(db);
  } else {
    await sql`delete from webhook_deliveries where next_attempt_at > now() + interval '12 hours'`.execute(db);
  }
  // Both states start every round vacuumed and analysed: what is compared is the rows, not the debris.
  await sql`vacuum analyze webhook_deliveries`.execute(db);
}

interface WorkerProcess {
  child: ChildProcess;
  /** The backend pid of its liveness session (what its claims carry in lease_owner). */
  owner: number;
}

async function startWorkers(app: WebhookBenchApp, n: number): Promise<WorkerProcess[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const child = fork(
        dispatcherWorker,
        [JSON.stringify({ databaseUrl: DATABASE_URL, schema: app.schema, secretsKey: app.secretsKey, ca: app.sink.ca })],
        // PGAPPNAME names its pooled connections, so their server processes' CPU can be read.
        {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          env: { ...process.env, PGAPPNAME: WORKER_APP_NAME },
        },
      );
      const owner = await new Promise<number>((resolve, reject) => {
        child.once('message', (m: { owner: number }) => resolve(m.owner));
        child.once('exit', (code) => reject(new Error(`dispatcher worker exited with ${code}`)));
      });
      return { child, owner };
    }),
  );
}

async function stopWorkers(workers: WorkerProcess[]): Promise<void> {
  await Promise.all(
    workers.map(async (w) => {
      if (w.child.exitCode !== null || w.child.signalCode !== null) return;
      const exited = new Promise((r) => w.child.once('exit', r));
      w.child.send({ stop: true });
      await exited;
    }),
  );
}

const WORKER_APP_NAME = 'bench-webhook-worker';

/** CPU time (ms) a process has used, from /proc (user + system; USER_HZ 100, so a tick is 10 ms). */
async function processCpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0; // gone
  }
}

/** CPU time (ms) of the PostgreSQL server processes serving the worker processes, by pid. */
async function workerBackendsCpuMs(app: WebhookBenchApp): Promise<Map<number, number>> {
  const r = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where application_name = ${WORKER_APP_NAME} or application_name like 'bench-dispatcher:%'`.execute(
    app.rt.handle.db,
  );
  const out = new Map<number, number>();
  for (const { pid } of r.rows) out.set(pid, await processCpuMs(pid));
  return out;
}

async function workersCpuMs(procs: WorkerProcess[]): Promise<number> {
  const each = await Promise.all(
    procs.map(
      (p) =>
        new Promise<number>((resolve) => {
          p.child.once('message', (m: { cpuMs: number }) => resolve(m.cpuMs));
          p.child.send({ cpu: true });
        }),
    ),
  );
  return each.reduce((a, b) => a + b, 0);
}

/** CPU ms per delivery of each part of a drain (this machine's cores are shared by all three). */
interface DrainCpu {
  workers: number;
  postgres: number;
  sink: number;
}

/**
 * `workers` dispatcher processes drain a backlog of DRAIN_DELIVERIES inserted while they wait: the
 * clock runs from the wake-up to the sink's receipt of the last one. Also the machine's CPU time per
 * delivery over the drain (every process: PostgreSQL, the sink, the workers, this one idling).
 */
async function drainRate(app: WebhookBenchApp, workers: number): Promise<{ rate: number; cpu: DrainCpu }> {
  const procs = await startWorkers(app, workers);
  try {
    const target = app.sink.count() + DRAIN_DELIVERIES;
    await insertBacklog(app, DRAIN_DELIVERIES);
    const pg0 = await workerBackendsCpuMs(app);
    const sink0 = await processCpuMs(app.sink.pid);
    const started = performance.now();
    for (const p of procs) p.child.send({ go: true });
    await app.sink.waitForCount(target, 300_000);
    const seconds = (performance.now() - started) / 1000;
    const pg1 = await workerBackendsCpuMs(app);
    let pgMs = 0;
    for (const [pid, ms] of pg1) pgMs += ms - (pg0.get(pid) ?? 0);
    const per = (ms: number): number => ms / DRAIN_DELIVERIES;
    return {
      rate: DRAIN_DELIVERIES / seconds,
      cpu: { workers: per(await workersCpuMs(procs)), postgres: per(pgMs), sink: per((await processCpuMs(app.sink.pid)) - sink0) },
    };
  } finally {
    await stopWorkers(procs);
  }
}

/**
 * Two workers drain a backlog; when a quarter has arrived one is killed with SIGKILL. Returns the
 * time from the kill until no row is leased to its (dead) session any more, and how many it held.
 */
async function takeoverAfterKill(app: WebhookBenchApp): Promise<{ ms: number; held: number; duplicates: number }> {
  const procs = await startWorkers(app, 2);
  const db = app.rt.handle.db;
  const seen = new Map<string, number>();
  const stop = app.sink.onRequest((id) => seen.set(id, (seen.get(id) ?? 0) + 1));
  try {
    const before = app.sink.count();
    await insertBacklog(app, DRAIN_DELIVERIES);
    for (const p of procs) p.child.send({ go: true });
    await app.sink.waitForCount(before + DRAIN_DELIVERIES / 4, 300_000);
    const victim = procs[1]!;
    const exited = new Promise((r) => victim.child.once('exit', r));
    victim.child.kill('SIGKILL');
    const killedAt = performance.now();
    const leased = async (): Promise<number> =>
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where lease_owner = ${victim.owner}::int`.execute(db))
          .rows[0]!.n,
      );
    const held = await leased();
    await exited;
    while ((await leased()) > 0) await new Promise((r) => setTimeout(r, 20));
    const ms = performance.now() - killedAt;
    while (
      Number(
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from webhook_deliveries where status = 'Pending' and next_attempt_at < now() + interval '12 hours'`.execute(
            db,
          )
        ).rows[0]!.n,
      ) > 0
    )
      await new Promise((r) => setTimeout(r, 50));
    return { ms, held, duplicates: [...seen.values()].filter((n) => n > 1).length };
  } finally {
    stop();
    await stopWorkers(procs);
  }
}

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

export const webhooksBenchmark: Benchmark = {
  name: 'webhooks',
  description: `webhook deliveries to a local HTTPS sink: rate vs a plain client, commit-to-receipt latency at ${OFFERED_EVENTS_PER_SEC} events/s, rate with ${WAITING_RETRIES.toLocaleString('en-US')} retries waiting, two worker processes vs one, lease takeover after kill -9`,
  async run(ctx: BenchContext): Promise<ResultRow[]> {
    const app = await startApp();
    try {
      await deliveryRate(app, 200); // warm-up: JIT, pools, TLS sessions
      const rates: number[] = [];
      const baselines: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        baselines.push(await baselineRate(app.sink, BURST_EVENTS * SUBSCRIPTIONS));
        rates.push(await deliveryRate(app, BURST_EVENTS));
        ctx.log(`round ${r + 1}: ${Math.round(rates.at(-1)!)} deliveries/s, baseline ${Math.round(baselines.at(-1)!)} POSTs/s`);
      }
      // BENCH_WEBHOOK_LATENCY_SECONDS=0 skips the latency figures (issue 13's runs on a saturated box).
      const latencies = LATENCY_SECONDS > 0 ? await latencyAtLoad(app) : [];
      ctx.log(
        `latency: ${latencies.length} deliveries, p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`,
      );

      // 100,000 deliveries waiting for a retry a day from now, as after a long partner outage, kept in
      // a table of their own and moved in and out of the outbox between alternating rounds.
      const db = app.rt.handle.db;
      await sql`create table bench_waiting_retries (like webhook_deliveries including defaults)`.execute(db);
      await sql`
        insert into bench_waiting_retries (id, subscription_id, tenant_id, event_id, source_event_id, event_type, payload, status, attempt_count, next_attempt_at)
        select gen_random_uuid(), (select id from webhook_subscriptions limit 1), ${app.tenantId}::uuid, gen_random_uuid(), gen_random_uuid(),
          'employee.created', convert_to('{}', 'UTF8'), 'Pending', 3, now() + interval '1 day'
        from generate_series(1, ${WAITING_RETRIES})`.execute(db);
      const withRetries: number[] = [];
      const withoutRetries: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (const waiting of r % 2 === 0 ? [false, true] : [true, false]) {
          await setRetriesWaiting(app, waiting);
          (waiting ? withRetries : withoutRetries).push(await deliveryRate(app, BURST_EVENTS));
        }
        ctx.log(
          `round ${r + 1}: ${Math.round(withRetries.at(-1)!)} deliveries/s with retries waiting, ${Math.round(withoutRetries.at(-1)!)} without`,
        );
      }
      await setRetriesWaiting(app, false);

      // Issue 13: worker processes of their own; the in-process dispatcher and projector stand down.
      await app.rt.background!.webhooks!.dispatcher.stop();
      await app.projector?.stop();
      app.projector = undefined;
      const one: number[] = [];
      const two: number[] = [];
      const cpuOne: DrainCpu[] = [];
      const cpuTwo: DrainCpu[] = [];
      const cpuText = (c: DrainCpu): string =>
        `${(c.workers + c.postgres + c.sink).toFixed(2)} CPU ms per delivery: workers ${c.workers.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)}, sink ${c.sink.toFixed(2)}`;
      for (let r = 0; r < ROUNDS; r++) {
        // Alternating order, so a drift in the machine's load favours neither.
        for (const n of r % 2 === 0 ? [1, 2] : [2, 1]) {
          const d = await drainRate(app, n);
          (n === 1 ? one : two).push(d.rate);
          (n === 1 ? cpuOne : cpuTwo).push(d.cpu);
          ctx.log(`drain round ${r + 1}, ${n} worker(s): ${Math.round(d.rate)} deliveries/s, ${cpuText(d.cpu)}`);
        }
      }
      const takeovers: number[] = [];
      const takeoverNotes: string[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const k = await takeoverAfterKill(app);
        takeovers.push(k.ms);
        takeoverNotes.push(`${Math.round(k.ms)} ms (${k.held} held, ${k.duplicates} sent twice)`);
        ctx.log(`takeover round ${r + 1}: ${takeoverNotes.at(-1)}`);
      }
      const cores = (await import('node:os')).availableParallelism();
      const medianCpu = (list: DrainCpu[]): DrainCpu => ({
        workers: median(list.map((c) => c.workers)),
        postgres: median(list.map((c) => c.postgres)),
        sink: median(list.map((c) => c.sink)),
      });
      const cpu1 = medianCpu(cpuOne);
      const cpuPer = cpu1.workers + cpu1.postgres + cpu1.sink;
      const rate = median(rates);
      const baseline = median(baselines);
      return [
        {
          figure: `Webhook deliveries/s, committed events to a local HTTPS sink, ${SUBSCRIPTIONS} subscriptions, keep-alive`,
          value: rate,
          unit: 'deliveries/s',
          target: { kind: 'atLeast', min: 2000 },
          notes: `${BURST_EVENTS} events x ${SUBSCRIPTIONS} per round; ${roundsNote(rates)}`,
        },
        {
          figure: 'Webhook deliveries/s vs the same POSTs from a plain HTTPS client',
          value: rate,
          unit: 'deliveries/s',
          baseline: { label: `plain keep-alive client, ${CONCURRENCY} concurrent`, value: baseline, unit: 'POSTs/s' },
          target: { kind: 'ratio', min: 0.25 },
          notes: `baseline ${roundsNote(baselines)}`,
        },
        ...(latencies.length === 0
          ? []
          : ([
              {
                figure: `Webhook commit-to-receipt p50 at ${OFFERED_EVENTS_PER_SEC} events/s x ${SUBSCRIPTIONS} subscriptions`,
                value: pct(latencies, 50),
                unit: 'ms',
                target: undefined,
                notes: `${latencies.length} deliveries over ${LATENCY_SECONDS} s`,
              },
              {
                figure: `Webhook commit-to-receipt p99 at ${OFFERED_EVENTS_PER_SEC} events/s x ${SUBSCRIPTIONS} subscriptions`,
                value: pct(latencies, 99),
                unit: 'ms',
                target: { kind: 'below', max: 500 },
                notes: `max ${latencies.at(-1)?.toFixed(1)} ms`,
              },
            ] satisfies ResultRow[])),
        {
          figure: `Webhook first-attempt deliveries/s with ${WAITING_RETRIES.toLocaleString('en-US')} retries waiting`,
          value: median(withRetries),
          unit: 'deliveries/s',
          baseline: { label: 'no retries waiting, alternating rounds', value: median(withoutRetries), unit: 'deliveries/s' },
          target: { kind: 'ratio', min: 0.9 },
          notes: `${roundsNote(withRetries)}; without: ${roundsNote(withoutRetries)}`,
        },
        {
          figure: `Webhook backlog of ${DRAIN_DELIVERIES.toLocaleString('en-US')} drained by two worker processes vs one`,
          value: median(two),
          unit: 'deliveries/s',
          baseline: { label: 'one worker process', value: median(one), unit: 'deliveries/s' },
          target: { kind: 'ratio', min: 1.6 },
          notes:
            `one ${roundsNote(one)}; two ${roundsNote(two)}; one worker ${cpuText(cpu1)}; two workers ${cpuText(medianCpu(cpuTwo))}; ` +
            `at ${cpuPer.toFixed(2)} ms per delivery ${cores} cores cap this machine near ${Math.round((cores * 1000) / cpuPer)} deliveries/s`,
        },
        {
          figure: 'Webhook lease takeover after kill -9 of one of two workers mid-drain',
          value: median(takeovers),
          unit: 'ms',
          target: { kind: 'below', max: 5000 },
          notes: takeoverNotes.join('; '),
        },
      ];
    } finally {
      await app.close();
    }
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await webhooksBenchmark.run({ memo: (_k, f) => f(), has: () => false, log: (m) => process.stderr.write(`  ${m}\n`) });
  for (const r of rows)
    console.log(
      `${r.figure}: ${r.value.toFixed(1)} ${r.unit}${r.baseline ? ` (baseline ${r.baseline.value.toFixed(1)} ${r.baseline.unit})` : ''}${r.notes ? `; ${r.notes}` : ''}`,
    );
  process.exit(0);
}
