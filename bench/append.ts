// 1. Append throughput: one event per command, 16 concurrent writers each on its own stream
// (exact expected revision, as the write path appends), through the PostgreSQL adapter. Baseline
// in the same run: the same rows inserted with plain single-row INSERTs by 16 clients of a pg
// pool into an equivalent table (es_events' columns, defaults, identity and indexes). Many short
// rounds alternate store and baseline so bursts of other load on a shared machine hit both; the
// medians are compared. CPU per event (this process and its PostgreSQL backends, from /proc) is
// reported too: unlike throughput it hardly depends on what else the machine runs.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { createPostgresEventStore } from '../src/eventstore/postgres/index.js';
import { categoryOf, type EventStore, type ExpectedRevision, type NewEvent } from '../src/eventstore/port.js';
import { withSchema } from './lib/db.js';
import { sampleEvent } from './lib/seed.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import { delta, installProbe, type Probe } from './lib/probe.js';
import type { BenchContext, Benchmark } from './lib/types.js';

export const WRITERS = 16;
const ROUND_SECONDS = Number(process.env.BENCH_APPEND_SECONDS ?? 2);
/** Rounds per side: twice the usual, since each is short. */
const APPEND_ROUNDS = 2 * ROUNDS;

export interface AppendFigures {
  store: number[];
  baseline: number[];
  storeMedian: number;
  baselineMedian: number;
  /** CPU ms per event, median over rounds: [Node, PostgreSQL backends]. */
  storeCpu: [number, number];
  baselineCpu: [number, number];
  /** SQL statements per event. */
  storeStatements: number;
}

interface Round {
  rate: number;
  node: number;
  pg: number;
  statements: number;
}

/** Runs `writers` loops until the deadline; returns operations per second and the cost of one. */
async function timedWriters(
  probe: Probe,
  writers: number,
  secondsBudget: number,
  op: (writer: number, i: number) => Promise<void>,
): Promise<Round> {
  const before = probe.snapshot();
  const started = performance.now();
  const deadline = started + secondsBudget * 1000;
  const counts = await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      let n = 0;
      while (performance.now() < deadline) await op(w, n++);
      return n;
    }),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  const rate = total / ((performance.now() - started) / 1000);
  const d = delta(before, probe.snapshot(), total);
  return { rate, node: d.nodeCpuMs, pg: d.pgCpuMs, statements: d.statements };
}

function storeRound(probe: Probe, store: EventStore, template: NewEvent, secondsBudget: number): Promise<Round> {
  const streams = Array.from({ length: WRITERS }, () => ({ id: `travelEntry-${randomUUID()}`, expected: 'no_stream' as ExpectedRevision }));
  return timedWriters(probe, WRITERS, secondsBudget, async (w) => {
    const s = streams[w]!;
    const r = await store.appendToStream(s.id, [{ ...template, id: randomUUID() }], s.expected);
    s.expected = r.nextExpectedRevision;
  });
}

function baselineRound(probe: Probe, pool: pg.Pool, template: NewEvent, secondsBudget: number): Promise<Round> {
  const streams = Array.from({ length: WRITERS }, () => `travelEntry-${randomUUID()}`);
  const data = JSON.stringify(template.data);
  const metadata = JSON.stringify(template.metadata);
  return timedWriters(probe, WRITERS, secondsBudget, async (w, i) => {
    const streamId = streams[w]!;
    await pool.query(
      `insert into baseline_events (event_id, stream_id, category, revision, type, data, metadata)
       values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
      [randomUUID(), streamId, categoryOf(streamId), i, template.type, data, metadata],
    );
  });
}

export async function measureAppend(ctx: BenchContext, opts: { rounds?: number; seconds?: number } = {}): Promise<AppendFigures> {
  const rounds = opts.rounds ?? APPEND_ROUNDS;
  const secondsBudget = opts.seconds ?? ROUND_SECONDS;
  return withSchema({ poolSize: WRITERS }, async (s) => {
    const store = createPostgresEventStore(s.handle);
    const pool = s.pool(WRITERS);
    await pool.query('create table baseline_events (like es_events including all)');
    const template = sampleEvent(randomUUID());
    const probe = installProbe();
    const f = { store: [] as Round[], baseline: [] as Round[] };
    try {
      // Warm-up: connections opened, plans and JIT warm on both sides.
      await storeRound(probe, store, template, 0.5);
      await baselineRound(probe, pool, template, 0.5);
      for (let r = 0; r < rounds; r++) {
        if (r % 2 === 0) {
          f.store.push(await storeRound(probe, store, template, secondsBudget));
          f.baseline.push(await baselineRound(probe, pool, template, secondsBudget));
        } else {
          f.baseline.push(await baselineRound(probe, pool, template, secondsBudget));
          f.store.push(await storeRound(probe, store, template, secondsBudget));
        }
        const [a, b] = [f.store[r]!, f.baseline[r]!];
        ctx.log(
          `append round ${r + 1}: store ${Math.round(a.rate)} /s (CPU ${a.node.toFixed(2)} + ${a.pg.toFixed(2)} ms), ` +
            `plain INSERT ${Math.round(b.rate)} /s (CPU ${b.node.toFixed(2)} + ${b.pg.toFixed(2)} ms)`,
        );
      }
    } finally {
      probe.uninstall();
    }
    await store.close();
    const cpu = (rs: Round[]): [number, number] => [median(rs.map((x) => x.node)), median(rs.map((x) => x.pg))];
    return {
      store: f.store.map((x) => x.rate),
      baseline: f.baseline.map((x) => x.rate),
      storeMedian: median(f.store.map((x) => x.rate)),
      baselineMedian: median(f.baseline.map((x) => x.rate)),
      storeCpu: cpu(f.store),
      baselineCpu: cpu(f.baseline),
      storeStatements: median(f.store.map((x) => x.statements)),
    };
  });
}

export const appendBenchmark: Benchmark = {
  name: 'append',
  description: 'Append throughput, one event per command, 16 writers on distinct streams, vs plain INSERTs by 16 clients',
  async run(ctx) {
    const f = await ctx.memo('append', () => measureAppend(ctx));
    return [
      {
        figure: `Append: 1 event per command, ${WRITERS} writers on distinct streams`,
        value: f.storeMedian,
        unit: 'events/s',
        baseline: { label: `plain INSERT, pg pool of ${WRITERS}`, value: f.baselineMedian, unit: 'rows/s' },
        target: { kind: 'ratio', min: 0.6 },
        notes:
          `median of ${f.store.length} × ${ROUND_SECONDS} s per side; store ${roundsNote(f.store)}; INSERT ${roundsNote(f.baseline)}; ` +
          `CPU per event: store ${f.storeCpu[0].toFixed(2)} ms Node + ${f.storeCpu[1].toFixed(2)} ms PostgreSQL (${f.storeStatements.toFixed(0)} SQL statements), ` +
          `INSERT ${f.baselineCpu[0].toFixed(2)} ms Node + ${f.baselineCpu[1].toFixed(2)} ms PostgreSQL (1 statement)`,
      },
    ];
  },
};
