// Audit figures (issue 11).
// 1. Append with hashing: the append benchmark's setting (16 writers, each on its own stream, one
//    event per append at the exact expected revision, through the PostgreSQL adapter), but every
//    event built by the write path's own `eventsToAppend`, so it carries its link of the hash chain
//    (canonical form, SHA-256). Rounds alternate with the same appends unhashed and with plain
//    single-row INSERTs (the baseline, as in bench/append.ts); medians are compared.
// 2. History of a 200-event entry (one page of all 200 events, and the default first page of 50;
//    every link on the page checked, which recomputes each event's hash) and an as-of
//    read (?revision= and ?asOf=, the entry folded from its stream) over HTTP: p99 latency of one
//    client (autocannon, 1 connection), next to GET of the current entry (the read model) in the
//    same run.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { eventsToAppend } from '../src/application/command-handler.js';
import { createPostgresEventStore } from '../src/eventstore/postgres/index.js';
import { categoryOf, type EventStore, type NewEvent } from '../src/eventstore/port.js';
import { benchCostCenters, entryBody, employeeBody, startBenchApp } from './lib/app.js';
import { withSchema } from './lib/db.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { delta, installProbe, type Probe } from './lib/probe.js';
import { sampleEvent } from './lib/seed.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { Benchmark, ResultRow } from './lib/types.js';

const WRITERS = 16;
const APPEND_SECONDS = Number(process.env.BENCH_APPEND_SECONDS ?? 2);
const READ_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
const HISTORY_EVENTS = 200;

type Side = 'hashed' | 'unhashed' | 'insert';
const READ_SIDES = ['history', 'historyPage', 'asOf', 'current'] as const;
type ReadSide = (typeof READ_SIDES)[number];

interface Round {
  rate: number;
  /** CPU ms per event: this process, and its PostgreSQL backends. */
  node: number;
  pg: number;
}

let probe: Probe | undefined;

async function timedWriters(secondsBudget: number, op: (writer: number, i: number) => Promise<void>): Promise<Round> {
  const before = probe!.snapshot();
  const started = performance.now();
  const deadline = started + secondsBudget * 1000;
  const counts = await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      let n = 0;
      while (performance.now() < deadline) await op(w, n++);
      return n;
    }),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  const d = delta(before, probe!.snapshot(), Math.max(1, total));
  return { rate: total / ((performance.now() - started) / 1000), node: d.nodeCpuMs, pg: d.pgCpuMs };
}

function appendRound(store: EventStore, template: NewEvent, hashed: boolean, secondsBudget: number): Promise<Round> {
  const streams = Array.from({ length: WRITERS }, () => ({
    id: `travelEntry-${randomUUID()}`,
    revision: undefined as number | undefined,
    lastHash: undefined as string | undefined,
  }));
  const context = {
    tenantId: template.metadata.tenantId,
    now: template.metadata.occurredAt,
    newId: randomUUID,
    actor: template.metadata.actor,
  };
  return timedWriters(secondsBudget, async (w) => {
    const s = streams[w]!;
    const events = hashed
      ? eventsToAppend([{ type: template.type, data: template.data }], context, template.metadata.correlationId, {
          streamId: s.id,
          revision: s.revision,
          lastHash: s.lastHash,
        })
      : [{ ...template, id: randomUUID() }];
    const r = await store.appendToStream(s.id, events, s.revision ?? 'no_stream');
    s.revision = r.nextExpectedRevision;
    s.lastHash = events[0]!.metadata.hash;
  });
}

function insertRound(pool: pg.Pool, template: NewEvent, secondsBudget: number): Promise<Round> {
  const streams = Array.from({ length: WRITERS }, () => `travelEntry-${randomUUID()}`);
  const data = JSON.stringify(template.data);
  const metadata = JSON.stringify(template.metadata);
  return timedWriters(secondsBudget, async (w, i) => {
    const streamId = streams[w]!;
    await pool.query(
      `insert into baseline_events (event_id, stream_id, category, revision, type, data, metadata)
       values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
      [randomUUID(), streamId, categoryOf(streamId), i, template.type, data, metadata],
    );
  });
}

async function measureHashedAppend(ctx: Parameters<Benchmark['run']>[0]): Promise<Record<Side, Round[]>> {
  return withSchema({ poolSize: WRITERS }, async (s) => {
    const store = createPostgresEventStore(s.handle);
    const pool = s.pool(WRITERS);
    await pool.query('create table baseline_events (like es_events including all)');
    const template = sampleEvent(randomUUID());
    const rates: Record<Side, Round[]> = { hashed: [], unhashed: [], insert: [] };
    probe = installProbe();
    const run = (side: Side, secs: number) =>
      side === 'insert' ? insertRound(pool, template, secs) : appendRound(store, template, side === 'hashed', secs);
    for (const side of ['hashed', 'unhashed', 'insert'] as const) await run(side, 0.5); // warm-up
    const orders: Side[][] = [
      ['hashed', 'insert', 'unhashed'],
      ['insert', 'unhashed', 'hashed'],
      ['unhashed', 'hashed', 'insert'],
    ];
    for (let r = 0; r < 2 * ROUNDS; r++) {
      for (const side of orders[r % orders.length]!) rates[side].push(await run(side, APPEND_SECONDS));
      ctx.log(
        `append round ${r + 1}: ` +
          (['hashed', 'unhashed', 'insert'] as const)
            .map((k) => `${k} ${Math.round(rates[k][r]!.rate)} /s (CPU ${rates[k][r]!.node.toFixed(3)} + ${rates[k][r]!.pg.toFixed(3)} ms)`)
            .join(', '),
      );
    }
    probe.uninstall();
    await store.close();
    return rates;
  });
}

async function measureReads(ctx: Parameters<Benchmark['run']>[0]): Promise<Record<ReadSide, LoadResult[]>> {
  const app = await startBenchApp();
  try {
    const employee = await app.call<{ id: string }>('POST', '/api/v1/employees', employeeBody(1), 201);
    const body = entryBody(employee.id, await benchCostCenters(app));
    const entry = await app.call<{ id: string }>('POST', '/api/v1/travel-entries', body, 201);
    const path = `/api/v1/travel-entries/${entry.id}`;
    for (let i = 1; i < HISTORY_EVENTS; i++) await app.call('PUT', path, { ...body, purpose: `Customer workshop, revision ${i}` });
    const history = await app.call<{ total: number; items: { recordedAt: string; hashValid: boolean }[] }>(
      'GET',
      `${path}/history?pageSize=${HISTORY_EVENTS}`,
    );
    if (history.total !== HISTORY_EVENTS || history.items.some((i) => i.hashValid !== true))
      throw new Error('the history is not 200 valid events');
    const bytes = JSON.stringify(history).length;
    ctx.log(`history: ${history.total} events, ${Math.round(bytes / 1024)} KB per answer`);
    const headers = { authorization: `Bearer ${app.tenant.key}` };
    const base = { origin: app.origin, method: 'GET' as const, headers, connections: 1 };
    const specs = {
      history: { ...base, path: `${path}/history?pageSize=${HISTORY_EVENTS}` },
      historyPage: { ...base, path: `${path}/history` },
      asOf: {
        ...base,
        path: `${path}?revision=150`,
        variants: [{ path: `${path}?revision=150` }, { path: `${path}?asOf=${encodeURIComponent(history.items[100]!.recordedAt)}` }],
      },
      current: { ...base, path },
    };
    for (const spec of Object.values(specs)) await runLoad({ ...spec, seconds: 1 }); // warm-up
    const out: Record<ReadSide, LoadResult[]> = { history: [], historyPage: [], asOf: [], current: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const which of READ_SIDES) out[which].push(await runLoad({ ...specs[which], seconds: READ_SECONDS }));
      ctx.log(
        `read round ${r + 1}: history p99 ${out.history[r]!.latencyMs.p99} ms (p50 ${out.history[r]!.latencyMs.p50}), ` +
          `first page of 50 p99 ${out.historyPage[r]!.latencyMs.p99} ms (p50 ${out.historyPage[r]!.latencyMs.p50}), ` +
          `as-of p99 ${out.asOf[r]!.latencyMs.p99} ms (p50 ${out.asOf[r]!.latencyMs.p50}), current GET p99 ${out.current[r]!.latencyMs.p99} ms`,
      );
    }
    for (const [name, rs] of Object.entries(out)) {
      if (rs.some((x) => x.non2xx > 0 || x.errors > 0)) throw new Error(`${name}: non-2xx or errors`);
    }
    return out;
  } finally {
    await app.close();
  }
}

export const auditBenchmark: Benchmark = {
  name: 'audit',
  description: 'Append with the hash chain vs plain INSERT; history of a 200-event entry and as-of reads, p99 over HTTP',
  async run(ctx) {
    const rounds = await measureHashedAppend(ctx);
    const a = {
      hashed: rounds.hashed.map((x) => x.rate),
      unhashed: rounds.unhashed.map((x) => x.rate),
      insert: rounds.insert.map((x) => x.rate),
    };
    const cpu = (side: Side) =>
      `${median(rounds[side].map((x) => x.node)).toFixed(3)} ms Node + ${median(rounds[side].map((x) => x.pg)).toFixed(3)} ms PostgreSQL`;
    const reads = await measureReads(ctx);
    const p99 = (rs: LoadResult[]) => median(rs.map((x) => x.latencyMs.p99));
    const current = { label: 'GET current entry (read model), same settings', value: p99(reads.current), unit: 'ms' };
    const rows: ResultRow[] = [
      {
        figure: `Append with hash chain: 1 event per command, ${WRITERS} writers on distinct streams`,
        value: median(a.hashed),
        unit: 'events/s',
        baseline: { label: `plain INSERT, pg pool of ${WRITERS}`, value: median(a.insert), unit: 'rows/s' },
        target: { kind: 'ratio', min: 0.65 },
        notes:
          `median of ${a.hashed.length} × ${APPEND_SECONDS} s per side; hashed ${roundsNote(a.hashed)}; ` +
          `the same appends unhashed ${roundsNote(a.unhashed)} (median ${Math.round(median(a.unhashed))}); INSERT ${roundsNote(a.insert)}; ` +
          `CPU per event: hashed ${cpu('hashed')}, unhashed ${cpu('unhashed')}, INSERT ${cpu('insert')}`,
      },
      {
        figure: `History of a ${HISTORY_EVENTS}-event entry, one page, 1 client`,
        value: p99(reads.history),
        unit: 'ms p99',
        baseline: current,
        target: { kind: 'below', max: 25 },
        notes: `p99 per round ${reads.history.map((x) => x.latencyMs.p99).join(' / ')} ms; p50 ${reads.history.map((x) => x.latencyMs.p50).join(' / ')} ms`,
      },
      {
        figure: `History of a ${HISTORY_EVENTS}-event entry, the default first page (50 events), 1 client`,
        value: p99(reads.historyPage),
        unit: 'ms p99',
        baseline: current,
        target: { kind: 'below', max: 25 },
        notes: `p99 per round ${reads.historyPage.map((x) => x.latencyMs.p99).join(' / ')} ms; p50 ${reads.historyPage.map((x) => x.latencyMs.p50).join(' / ')} ms`,
      },
      {
        figure: `As-of read of a ${HISTORY_EVENTS}-event entry (?revision=150 and ?asOf=), 1 client`,
        value: p99(reads.asOf),
        unit: 'ms p99',
        baseline: current,
        target: { kind: 'below', max: 25 },
        notes: `p99 per round ${reads.asOf.map((x) => x.latencyMs.p99).join(' / ')} ms; p50 ${reads.asOf.map((x) => x.latencyMs.p50).join(' / ')} ms`,
      },
    ];
    return rows;
  },
};
