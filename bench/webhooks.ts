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
//   3. first-attempt throughput with 100,000 retries waiting, against figure 1.
// Run alone: `npx tsx bench/webhooks.ts` (or add `webhooksBenchmark` to BENCHMARKS in bench/run.ts).
import https from 'node:https';
import { fork } from 'node:child_process';
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
const writerWorker = fileURLToPath(new URL('./lib/event-writer-worker.ts', import.meta.url));

interface WebhookBenchApp {
  rt: Runtime;
  schema: string;
  tenantId: string;
  sink: HttpsSink;
  /** The catalog projector the benchmark controls (the process's own one is stopped at start). */
  projector: Subscription | undefined;
  close(): Promise<void>;
}

async function startApp(): Promise<WebhookBenchApp> {
  const s = await freshSchema({ poolSize: 20 });
  const sink = await startHttpsSink();
  const config = loadConfig({
    DATABASE_URL,
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    RATES_FETCH: 'off',
    ROLE: 'webhooks',
    SECRETS_KEY: randomBytes(32).toString('hex'),
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

/** The same POSTs from a plain keep-alive HTTPS client at the dispatcher's concurrency. */
async function baselineRate(sink: HttpsSink, requests: number): Promise<number> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = Buffer.from(
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

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

export const webhooksBenchmark: Benchmark = {
  name: 'webhooks',
  description: `webhook deliveries to a local HTTPS sink: rate vs a plain client, commit-to-receipt latency at ${OFFERED_EVENTS_PER_SEC} events/s, rate with ${WAITING_RETRIES.toLocaleString('en-US')} retries waiting`,
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
      const latencies = await latencyAtLoad(app);
      ctx.log(
        `latency: ${latencies.length} deliveries, p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`,
      );

      // 100,000 deliveries waiting for a retry a day from now, as after a long partner outage.
      const db = app.rt.handle.db;
      await sql`
        insert into webhook_deliveries (id, subscription_id, tenant_id, event_id, source_event_id, event_type, payload, status, attempt_count, next_attempt_at)
        select gen_random_uuid(), (select id from webhook_subscriptions limit 1), ${app.tenantId}::uuid, gen_random_uuid(), gen_random_uuid(),
          'employee.created', convert_to('{}', 'UTF8'), 'Pending', 3, now() + interval '1 day'
        from generate_series(1, ${WAITING_RETRIES})`.execute(db);
      await sql`analyze webhook_deliveries`.execute(db);
      const withRetries: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        withRetries.push(await deliveryRate(app, BURST_EVENTS));
        ctx.log(`with retries waiting, round ${r + 1}: ${Math.round(withRetries.at(-1)!)} deliveries/s`);
      }
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
        {
          figure: `Webhook first-attempt deliveries/s with ${WAITING_RETRIES.toLocaleString('en-US')} retries waiting`,
          value: median(withRetries),
          unit: 'deliveries/s',
          baseline: { label: 'no retries waiting (figure above)', value: rate, unit: 'deliveries/s' },
          target: { kind: 'ratio', min: 0.9 },
          notes: roundsNote(withRetries),
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
