// 2. Catch-up read rate over at least 200,000 events: a subscription from position zero to the
// live end (subscribeToAll, the projections' way in), and readAll paging. Baseline in the same
// run: plain keyset pages of the same size over es_events through a pg pool (same columns, no
// snapshot filter, no mapping). Events are realistic payloads (decider-recorded, ~0.8-2 KB).
import type pg from 'pg';
import { createPostgresEventStore } from '../src/eventstore/postgres/index.js';
import type { EventStore, Position } from '../src/eventstore/port.js';
import { BATCH_SIZE } from '../projections/runner.js';
import { withSchema } from './lib/db.js';
import { seedCloned } from './lib/seed.js';
import { median, roundsNote, ROUNDS, seconds } from './lib/stats.js';
import { delta, installProbe, type Probe } from './lib/probe.js';
import type { Benchmark } from './lib/types.js';

const EVENTS = Number(process.env.BENCH_CATCHUP_EVENTS ?? 200_000);

/** Plain keyset paging, the floor any feed reader pays. */
async function plainPages(pool: pg.Pool): Promise<number> {
  let after = 0;
  let n = 0;
  for (;;) {
    const r = await pool.query<{ global_position: string }>(
      `select global_position, tx_id::text as tx_id, event_id::text as event_id, stream_id, revision, type, data, metadata, recorded_at
       from es_events where global_position > $1 order by global_position limit $2`,
      [after, BATCH_SIZE],
    );
    n += r.rows.length;
    if (r.rows.length < BATCH_SIZE) return n;
    after = Number(r.rows[r.rows.length - 1]!.global_position);
  }
}

async function readAllPages(store: EventStore): Promise<number> {
  let after: Position | undefined;
  let n = 0;
  for (;;) {
    const page = await store.readAll({ after, maxCount: BATCH_SIZE });
    n += page.events.length;
    after = page.lastPosition;
    if (page.isEnd) return n;
  }
}

/** Subscribes from the start and resolves with the count when the subscription first reaches the end. */
async function subscription(store: EventStore): Promise<number> {
  let n = 0;
  let caughtUp!: () => void;
  const done = new Promise<void>((resolve) => (caughtUp = resolve));
  const failed = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('catch-up did not finish within 120 s')), 120_000).unref(),
  );
  const sub = store.subscribeToAll({
    batchSize: BATCH_SIZE,
    onBatch: async (events) => {
      n += events.length;
    },
    onCaughtUp: () => caughtUp(),
    onError: (err) => console.error('subscription error', err),
  });
  await Promise.race([done, failed]);
  await sub.stop();
  return n;
}

/** CPU per 1,000 events: this process and the PostgreSQL backends serving it. */
export interface Cpu {
  node: number;
  pg: number;
  wall: number;
}

async function rate(fn: () => Promise<number>, expected: number, probe: Probe, cpu?: Cpu[]): Promise<number> {
  const before = probe.snapshot();
  const t0 = performance.now();
  const n = await fn();
  const s = seconds(t0);
  if (n !== expected) throw new Error(`read ${n} events, expected ${expected}`);
  const d = delta(before, probe.snapshot(), n / 1000);
  cpu?.push({ node: d.nodeCpuMs, pg: d.pgCpuMs, wall: (s * 1000) / (n / 1000) });
  return n / s;
}

export function cpuNote(label: string, cpu: Cpu[]): string {
  return `${label} per 1,000 events: ${median(cpu.map((c) => c.wall)).toFixed(1)} ms elapsed, CPU ${median(cpu.map((c) => c.node)).toFixed(1)} ms Node + ${median(cpu.map((c) => c.pg)).toFixed(1)} ms PostgreSQL`;
}

export const catchUpBenchmark: Benchmark = {
  name: 'catch-up',
  description: `Catch-up read rate over ${EVENTS.toLocaleString('en-US')} events (subscribeToAll and readAll pages of ${BATCH_SIZE}) vs plain keyset SELECT pages`,
  async run(ctx) {
    return withSchema({ poolSize: 4 }, async (s) => {
      const pool = s.pool(4);
      const t0 = performance.now();
      const seeded = await seedCloned(pool, EVENTS);
      await pool.query('vacuum (analyze) es_events');
      ctx.log(`seeded ${seeded} events in ${seconds(t0).toFixed(1)} s (bulk INSERT of decider-recorded payloads, then VACUUM ANALYZE)`);
      const store = createPostgresEventStore(s.handle);
      const probe = installProbe();
      const f = { plain: [] as number[], readAll: [] as number[], sub: [] as number[] };
      const cpu = { plain: [] as Cpu[], readAll: [] as Cpu[], sub: [] as Cpu[] };
      try {
        await rate(() => plainPages(pool), seeded, probe); // warm-up: caches and hint bits
        for (let r = 0; r < ROUNDS; r++) {
          f.plain.push(await rate(() => plainPages(pool), seeded, probe, cpu.plain));
          f.sub.push(await rate(() => subscription(store), seeded, probe, cpu.sub));
          f.readAll.push(await rate(() => readAllPages(store), seeded, probe, cpu.readAll));
          ctx.log(
            `catch-up round ${r + 1}: subscribeToAll ${Math.round(f.sub[r]!)} /s, readAll ${Math.round(f.readAll[r]!)} /s, plain SELECT ${Math.round(f.plain[r]!)} /s`,
          );
        }
      } finally {
        probe.uninstall();
      }
      await store.close();
      ctx.log([cpuNote('plain SELECT', cpu.plain), cpuNote('subscribeToAll', cpu.sub), cpuNote('readAll', cpu.readAll)].join('\n  '));
      const baseline = { label: `plain keyset SELECT pages of ${BATCH_SIZE}`, value: median(f.plain), unit: 'events/s' };
      const common = `${seeded.toLocaleString('en-US')} events, median of ${ROUNDS}; plain SELECT ${roundsNote(f.plain)}; ${cpuNote('plain SELECT', cpu.plain)}`;
      return [
        {
          figure: `Catch-up: subscribeToAll from 0 to the end, ${seeded.toLocaleString('en-US')} events`,
          value: median(f.sub),
          unit: 'events/s',
          baseline,
          target: { kind: 'atLeast', min: 100_000 },
          notes: `${common}; subscribeToAll ${roundsNote(f.sub)}; ${cpuNote('subscribeToAll', cpu.sub)}`,
        },
        {
          figure: `Catch-up: readAll pages of ${BATCH_SIZE}`,
          value: median(f.readAll),
          unit: 'events/s',
          baseline,
          target: { kind: 'atLeast', min: 100_000 },
          notes: `${common}; readAll ${roundsNote(f.readAll)}; ${cpuNote('readAll', cpu.readAll)}`,
        },
      ];
    });
  },
};
