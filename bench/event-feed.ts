// The event feed (issue 11). Two figures:
// 1. Paging the whole feed over HTTP: one client (in a child process), GET /api/v1/events?limit=1000 from the start to
//    the end, envelopes per second (median of rounds). Baseline, same run: the same pages read by
//    the same query in process (no HTTP), which is what the route adds its cost to.
// 2. Long-poll wake-up: a client waits (wait=30) at the head of the feed, an employee registration
//    is appended, and the time from the append's commit (appendToStream resolved) to the answer
//    arriving at the client. Baseline, same commits: the time until the projection runner reports
//    the event applied (the floor: the feed cannot answer before its row exists).
// The feed is seeded with realistic decider-recorded histories (bench/lib/seed.ts, all catalog
// events) bulk-inserted into the store, then projected by the running projector (its catch-up rate
// is noted).
import { spawn } from 'node:child_process';
import pg from 'pg';
import { startBenchApp } from './lib/app.js';
import { DATABASE_URL } from './lib/db.js';
import { activityBlock, bulkInsert, type SeedEvent } from './lib/seed.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { Benchmark } from './lib/types.js';
import { EVENT_FEED_PROJECTION } from '../projections/event-feed/projection.js';
import { readFeedPage, type FeedPosition } from '../projections/event-feed/queries.js';

const BLOCKS = Number(process.env.BENCH_FEED_BLOCKS ?? 6); // 3,500 catalog events each
const PAGE = 1000;
const WAKEUPS = Number(process.env.BENCH_FEED_WAKEUPS ?? 200);

const percentile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

// The paging client runs in a process of its own (as autocannon does for the other HTTP figures), so
// its JSON parsing does not share the server's event loop. Plain JavaScript: no loader needed.
const PAGER = `
const [origin, key, limit, passes] = process.argv.slice(1);
const headers = { authorization: 'Bearer ' + key };
async function pass() {
  let after, n = 0;
  const t0 = performance.now();
  for (;;) {
    const res = await fetch(origin + '/api/v1/events?limit=' + limit + (after ? '&after=' + after : ''), { headers });
    if (res.status !== 200) throw new Error('GET /events: ' + res.status);
    const body = await res.json();
    if (body.items.length === 0) return { n, rate: n / ((performance.now() - t0) / 1000) };
    n += body.items.length;
    after = body.nextCursor;
  }
}
(async () => {
  await pass();
  const rates = [];
  let events = 0;
  for (let i = 0; i < Number(passes); i++) {
    const r = await pass();
    rates.push(r.rate);
    events = r.n;
  }
  process.stdout.write(JSON.stringify({ events, rates }));
})().catch((err) => { console.error(err); process.exit(1); });
`;

function pageInChild(origin: string, key: string, passes: number): Promise<{ events: number; rates: number[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', PAGER, origin, key, String(PAGE), String(passes)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as { events: number; rates: number[] }) : reject(new Error(`pager exited with ${code}`)),
    );
  });
}

export const eventFeedBenchmark: Benchmark = {
  name: 'event-feed',
  description: `GET /api/v1/events paging (limit ${PAGE}) envelopes/s; long-poll wake-up p99 after the commit`,
  async run(ctx) {
    const app = await startBenchApp();
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2, options: `-c search_path=${app.schema}` } as pg.PoolConfig);
    try {
      const tenantId = app.tenant.id;
      const { rt } = app;
      let seeded = 0;
      for (let b = 0; b < BLOCKS; b++) {
        const rows = activityBlock(tenantId, 500, 1 + b * 500).map((e: SeedEvent) => ({
          ...e,
          data: JSON.stringify(e.data),
          metadata: JSON.stringify(e.metadata),
        }));
        await bulkInsert(pool, rows);
        seeded += rows.length;
      }
      const projecting = performance.now();
      for (;;) {
        const status = (await rt.runner.status()).find((s) => s.name === EVENT_FEED_PROJECTION)!;
        if (status.lag === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const projectSeconds = (performance.now() - projecting) / 1000;
      // Freshly filled: statistics as autovacuum would leave them (without them the planner sorts the
      // tenant's whole feed for each page instead of walking the primary key).
      await pool.query('analyze rm_event_feed');
      ctx.log(`seeded ${seeded} catalog events; the feed projection caught up in ${projectSeconds.toFixed(1)} s`);

      const headers = { authorization: `Bearer ${app.tenant.key}` };
      const pageInProcess = async (): Promise<number> => {
        let after: FeedPosition | undefined;
        let n = 0;
        for (;;) {
          const rows = await readFeedPage(rt.handle.db, tenantId, { after, limit: PAGE });
          if (rows.length === 0) return n;
          n += rows.length;
          after = rows[rows.length - 1];
        }
      };
      await pageInProcess(); // warm-up
      const passes = await pageInChild(app.origin, app.tenant.key, ROUNDS);
      const http = passes.rates;
      const total = passes.events;
      const direct: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const t0 = performance.now();
        await pageInProcess();
        direct.push(total / ((performance.now() - t0) / 1000));
        ctx.log(
          `paging round ${r + 1}: HTTP ${Math.round(http[r]!)} envelopes/s, in process ${Math.round(direct[r]!)} envelopes/s (${total} events)`,
        );
      }

      // Long poll: the client is parked at the head, then one append commits.
      let cursor = '';
      {
        let after: string | undefined;
        for (;;) {
          const res = await fetch(`${app.origin}/api/v1/events?limit=${PAGE}${after ? `&after=${after}` : ''}`, { headers });
          const body = (await res.json()) as { items: unknown[]; nextCursor: string };
          after = body.nextCursor;
          if (body.items.length === 0) break;
        }
        cursor = after!;
      }
      const wake: number[] = [];
      const applied: number[] = [];
      let misses = 0;
      for (let i = 0; i < WAKEUPS; i++) {
        const registered = activityBlock(tenantId, 1, 90_000 + i).find((e) => e.type === 'EmployeeRegistered')!;
        let answeredAt = 0;
        const polling = fetch(`${app.origin}/api/v1/events?after=${cursor}&wait=30`, { headers }).then(async (res) => {
          const body = (await res.json()) as { items: unknown[]; nextCursor: string };
          answeredAt = performance.now();
          return body;
        });
        await new Promise((r) => setTimeout(r, 15)); // the poll is parked
        const appended = await rt.store.appendToStream(
          registered.streamId,
          [{ id: registered.eventId, type: registered.type, data: registered.data, metadata: registered.metadata }],
          'no_stream',
        );
        const committedAt = performance.now();
        const seen = rt.runner.waitFor(EVENT_FEED_PROJECTION, appended.position, 30_000).then(() => performance.now());
        const body = await polling;
        applied.push((await seen) - committedAt);
        if (body.items.length !== 1) misses++;
        wake.push(answeredAt - committedAt);
        cursor = body.nextCursor;
      }
      const p99 = percentile(wake, 99);
      const appliedP99 = percentile(applied, 99);
      ctx.log(
        `wake-up over ${WAKEUPS} commits: p50 ${percentile(wake, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...wake).toFixed(1)} ms; projection applied p99 ${appliedP99.toFixed(1)} ms`,
      );
      return [
        {
          figure: `Event feed paging over HTTP, limit ${PAGE}, 1 client`,
          value: median(http),
          unit: 'envelopes/s',
          baseline: { label: 'the same pages by the same query in process', value: median(direct), unit: 'envelopes/s' },
          target: { kind: 'atLeast', min: 20_000 },
          notes: `median of ${ROUNDS} full passes over ${total} events; HTTP ${roundsNote(http)}; in process ${roundsNote(direct)}; projection catch-up of ${seeded} seeded events ${(seeded / projectSeconds).toFixed(0)} events/s`,
        },
        {
          figure: 'Event feed long-poll wake-up p99 after the commit',
          value: p99,
          unit: 'ms',
          baseline: { label: 'projection applied p99, same commits', value: appliedP99, unit: 'ms' },
          target: { kind: 'below', max: 100 },
          notes: `${WAKEUPS} commits, one parked poll each; p50 ${percentile(wake, 50).toFixed(1)} ms, max ${Math.max(...wake).toFixed(1)} ms; polls answered without the event ${misses}`,
        },
      ];
    } finally {
      await pool.end();
      await app.close();
    }
  },
};
