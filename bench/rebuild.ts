// 3. Projection rebuild rate: realistic employee and travel-entry histories recorded by the
// deciders (registered + updated employees; entries created, two expenses and a per diem added,
// submitted and auto-approved), bulk-inserted, then ProjectionRunner.rebuild per projection (what
// `npm run cli -- projections rebuild NAME` does: empty the tables, reset, catch up from zero).
// Baseline in the same run: a read-only subscription over the same filtered slice of the feed, so
// the ratio shows what applying (fold + upsert + checkpoint) costs on top of reading.
import pino from 'pino';
import { sql } from 'kysely';
import { createPostgresEventStore } from '../src/eventstore/postgres/index.js';
import type { EventStore, FeedFilter } from '../src/eventstore/port.js';
import { ProjectionRunner, BATCH_SIZE } from '../projections/runner.js';
import { allProjections } from '../projections/index.js';
import { withSchema } from './lib/db.js';
import { seedActivity } from './lib/seed.js';
import { median, roundsNote, ROUNDS, seconds } from './lib/stats.js';
import { delta, describeDelta, installProbe, type Probe, type ProbeDelta } from './lib/probe.js';
import { cpuNote, type Cpu } from './catch-up.js';
import type { Benchmark, ResultRow } from './lib/types.js';

const EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? 60_000);

async function withCpu<T extends { n: number }>(
  probe: Probe,
  into: Cpu[],
  fn: () => Promise<T>,
  log?: (d: ProbeDelta) => void,
): Promise<T> {
  const before = probe.snapshot();
  const t0 = performance.now();
  const result = await fn();
  const d = delta(before, probe.snapshot(), result.n / 1000);
  into.push({ node: d.nodeCpuMs, pg: d.pgCpuMs, wall: (performance.now() - t0) / (result.n / 1000) });
  log?.(d);
  return result;
}

async function readOnly(store: EventStore, filter: FeedFilter): Promise<{ n: number; rate: number }> {
  const t0 = performance.now();
  let n = 0;
  let caughtUp!: () => void;
  const done = new Promise<void>((resolve) => (caughtUp = resolve));
  const sub = store.subscribeToAll({
    filter,
    batchSize: BATCH_SIZE,
    onBatch: async (events) => {
      n += events.length;
    },
    onCaughtUp: () => caughtUp(),
  });
  await done;
  const s = seconds(t0);
  await sub.stop();
  return { n, rate: n / s };
}

export const rebuildBenchmark: Benchmark = {
  name: 'rebuild',
  description: `Projection rebuild rate over ≥ ${EVENTS.toLocaleString('en-US')} decider-recorded employee and travel-entry events vs a read-only pass over the same events`,
  async run(ctx) {
    return withSchema({ poolSize: 10 }, async (s) => {
      const pool = s.pool(2);
      const t0 = performance.now();
      const seeded = await seedActivity(pool, EVENTS);
      await pool.query('vacuum (analyze) es_events');
      ctx.log(`seeded ${seeded} events in ${seconds(t0).toFixed(1)} s (deciders, bulk INSERT, VACUUM ANALYZE)`);
      const store = createPostgresEventStore(s.handle);
      const runner = new ProjectionRunner({ db: s.handle.db, store, logger: pino({ level: 'silent' }), projections: allProjections() });
      const rows: ResultRow[] = [];
      const totals = { events: [] as number[], seconds: [] as number[], readSeconds: [] as number[] };
      const per = new Map<string, { rebuild: number[]; read: number[]; events: number; cpu: Cpu[]; readCpu: Cpu[]; applyMs: number[] }>();
      // Time inside each projection's apply (fold + read + upsert of its rows), per 1,000 events.
      const applyMs = new Map<string, number>();
      const restore = runner.projections.map((p) => {
        const original = p.apply;
        const mutable = p as { apply: typeof p.apply };
        mutable.apply = async (trx, events) => {
          const t = performance.now();
          try {
            return await original.call(p, trx, events);
          } finally {
            applyMs.set(p.name, (applyMs.get(p.name) ?? 0) + performance.now() - t);
          }
        };
        return () => {
          mutable.apply = original;
        };
      });
      const probe = installProbe();
      try {
        for (let r = 0; r < ROUNDS; r++) {
          let events = 0;
          let secs = 0;
          let readSecs = 0;
          for (const p of runner.projections) {
            const readCpu: Cpu[] = [];
            const read = await withCpu(probe, readCpu, () => readOnly(store, p.filter));
            if (read.n === 0) continue;
            const cpu: Cpu[] = [];
            const applied0 = applyMs.get(p.name) ?? 0;
            const result = await withCpu(
              probe,
              cpu,
              async () => ({ ...(await runner.rebuild(p.name)), n: read.n }),
              r === 0 ? (d) => ctx.log(describeDelta(d, `1,000 events of the ${p.name} rebuild`, 8)) : undefined,
            );
            if (result.events !== read.n) throw new Error(`${p.name}: rebuilt ${result.events} events, the feed has ${read.n}`);
            const m = per.get(p.name) ?? { rebuild: [], read: [], events: result.events, cpu: [], readCpu: [], applyMs: [] };
            m.rebuild.push(result.events / result.seconds);
            m.read.push(read.rate);
            m.cpu.push(...cpu);
            m.readCpu.push(...readCpu);
            m.applyMs.push(((applyMs.get(p.name) ?? 0) - applied0) / (read.n / 1000));
            per.set(p.name, m);
            events += result.events;
            secs += result.seconds;
            readSecs += read.n / read.rate;
          }
          totals.events.push(events);
          totals.seconds.push(secs);
          totals.readSeconds.push(readSecs);
          ctx.log(
            `rebuild round ${r + 1}: ${[...per].map(([name, m]) => `${name} ${Math.round(m.rebuild[r]!)} /s (read-only ${Math.round(m.read[r]!)} /s)`).join(', ')}`,
          );
        }
      } finally {
        probe.uninstall();
        for (const r of restore) r();
      }
      await runner.stop();
      const counts = await sql<{ e: number; t: number }>`
        select (select count(*) from rm_employees)::int as e, (select count(*) from rm_travel_entries)::int as t`.execute(s.handle.db);
      ctx.log(`read models after rebuild: ${counts.rows[0]!.e} employees, ${counts.rows[0]!.t} travel entries`);
      await store.close();
      for (const [name, m] of per) {
        rows.push({
          figure: `Rebuild \`${name}\` (${m.events.toLocaleString('en-US')} events)`,
          value: median(m.rebuild),
          unit: 'events/s',
          baseline: { label: 'read-only subscription over the same events', value: median(m.read), unit: 'events/s' },
          target: { kind: 'atLeast', min: 20_000 },
          notes:
            `${name}: median of ${ROUNDS}; rebuild ${roundsNote(m.rebuild)}; read-only ${roundsNote(m.read)}; ` +
            `${cpuNote('rebuild', m.cpu)}, of which ${median(m.applyMs).toFixed(1)} ms inside apply; ${cpuNote('read-only', m.readCpu)}`,
        });
      }
      const allRates = totals.events.map((e, i) => e / totals.seconds[i]!);
      const readRates = totals.events.map((e, i) => e / totals.readSeconds[i]!);
      const skipped = runner.projections.filter((p) => !per.has(p.name)).map((p) => p.name);
      rows.push({
        figure: `Rebuild all projections (${totals.events[0]!.toLocaleString('en-US')} events)`,
        value: median(allRates),
        unit: 'events/s',
        baseline: { label: 'read-only subscriptions over the same events', value: median(readRates), unit: 'events/s' },
        target: { kind: 'atLeast', min: 20_000 },
        notes: `all: ${seeded.toLocaleString('en-US')} events seeded; rebuild ${roundsNote(allRates)}${skipped.length ? `; no events for ${skipped.join(', ')} (not rebuilt)` : ''}`,
      });
      return rows;
    });
  },
};
