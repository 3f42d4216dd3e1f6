// 5. GET /api/v1/travel-entries/{id} with 64 connections (autocannon in its own process), over
// ids of entries created through the API, next to the trivial route /healthz with the same
// settings in the same run (rounds alternate the two). Requests per second and p99 latency.
// Issue 13's logging target, logging's share of a GET's CPU: the CPU of one request's line (its
// child logger, pino's serialisation and the server's destination writing to a file), measured in
// process on a line as a GET logged it, against the Node CPU of a GET under load with logging
// silent. Diagnostic: the same GET with info logging against silent, in short rounds paired on the
// one app. Their differences move by ±15% a pair on a shared two-core machine, far more than the
// 2% to resolve; the per-line figure moves by a few tenths of a µs.
import { seedEntries, startBenchApp } from './lib/app.js';
import { okRate, runLoad, type LoadResult, type LoadSpec } from './lib/load.js';
import { delta, describeDelta, installProbe, type ProbeDelta } from './lib/probe.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { Benchmark, ResultRow } from './lib/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { logRequestCompleted, REQUEST_COMPLETED, requestLineStream, type RequestLine } from '../src/http/request-line.js';
import { switchableLog, type LogMode, type SwitchableLog } from './lib/switchable-log.js';

const CONNECTIONS = 64;
const ROUND_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const ENTRIES = 200;
// Pairs of short rounds rather than a few long ones: a pair sees the same drift in both its rounds.
const LOG_ROUND_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 2);
const LOG_PAIRS = 4 * ROUNDS;
/** Lines per block of the per-line measurement, and blocks per mode (alternating silent and info). */
const LINE_BLOCK = 20_000;
const LINE_BLOCKS = 5 * ROUNDS;

export const httpGetBenchmark: Benchmark = {
  name: 'http-get',
  description: `GET /api/v1/travel-entries/{id} vs GET /healthz, ${CONNECTIONS} connections, requests/s and p99`,
  async run(ctx) {
    const log = switchableLog();
    const app = await startBenchApp({ logger: log.logger });
    const probe = installProbe();
    try {
      const ids = await seedEntries(app, ENTRIES);
      const sequential = 100;
      const s0 = probe.snapshot();
      for (let i = 0; i < sequential; i++) await app.call('GET', `/api/v1/travel-entries/${ids[i % ids.length]}`);
      const seq = delta(s0, probe.snapshot(), sequential);
      ctx.log(describeDelta(seq, 'sequential GET (Node CPU includes the in-process fetch client)'));
      const headers = { authorization: `Bearer ${app.tenant.key}` };
      const health = { origin: app.origin, method: 'GET' as const, path: '/healthz', headers, connections: CONNECTIONS };
      const get = {
        ...health,
        path: `/api/v1/travel-entries/${ids[0]}`,
        variants: ids.map((id) => ({ path: `/api/v1/travel-entries/${id}` })),
      };
      await runLoad({ ...health, seconds: 2 }); // warm-up both
      await runLoad({ ...get, seconds: 2 });
      const f = { get: [] as LoadResult[], health: [] as LoadResult[] };
      const probes = { get: [] as ProbeDelta[], health: [] as ProbeDelta[] };
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 === 0 ? (['health', 'get'] as const) : (['get', 'health'] as const);
        for (const which of order) {
          const before = probe.snapshot();
          const res = await runLoad({ ...(which === 'get' ? get : health), seconds: ROUND_SECONDS });
          f[which].push(res);
          probes[which].push(delta(before, probe.snapshot(), Math.max(1, res.ok)));
        }
        const g = f.get[r]!;
        const h = f.health[r]!;
        ctx.log(
          `get round ${r + 1}: GET entry ${Math.round(okRate(g))} /s p99 ${g.latencyMs.p99} ms (non-2xx ${g.non2xx}, errors ${g.errors}); /healthz ${Math.round(okRate(h))} /s p99 ${h.latencyMs.p99} ms`,
        );
      }
      const getRates = f.get.map(okRate);
      const healthRates = f.health.map(okRate);
      const getP99 = f.get.map((r) => r.latencyMs.p99);
      const healthP99 = f.health.map((r) => r.latencyMs.p99);
      const bad = f.get.reduce((a, r) => a + r.non2xx + r.errors, 0);
      const cpu = (which: 'get' | 'health'): string =>
        `CPU ${median(probes[which].map((d) => d.nodeCpuMs)).toFixed(2)} ms Node + ${median(probes[which].map((d) => d.pgCpuMs)).toFixed(2)} ms PostgreSQL`;
      // Fastify's own logger (its child of ours): each request's logger is a child of it.
      const logging = await loggingRounds(ctx.log, log, probe, get, app.rt.app!.log);
      return [
        {
          figure: `GET travel entry, ${CONNECTIONS} connections`,
          value: median(getRates),
          unit: 'requests/s',
          baseline: { label: `GET /healthz, same settings`, value: median(healthRates), unit: 'requests/s' },
          target: { kind: 'ratio', min: 0.3 },
          notes: `median of ${ROUNDS} × ${ROUND_SECONDS} s over ${ENTRIES} entries; GET ${roundsNote(getRates)}; /healthz ${roundsNote(healthRates)}; non-2xx/errors ${bad}; per GET under load: ${median(probes.get.map((d) => d.statements)).toFixed(1)} SQL statements, ${cpu('get')}; per /healthz: ${cpu('health')}`,
        },
        {
          figure: `GET travel entry p99 latency, ${CONNECTIONS} connections`,
          value: median(getP99),
          unit: 'ms',
          baseline: { label: '/healthz p99, same settings', value: median(healthP99), unit: 'ms' },
          target: { kind: 'below', max: 25 },
          notes: `p99 GET rounds ${getP99.join(' / ')} ms; /healthz ${healthP99.join(' / ')} ms; p50 GET ${median(f.get.map((r) => r.latencyMs.p50))} ms`,
        },
        ...logging,
      ];
    } finally {
      probe.uninstall();
      await app.close();
      log.close();
    }
  },
};

/**
 * GET rounds paired silent and info, each pair in the order opposite the last (silent-info, then
 * info-silent: a drift over a pair's four seconds falls on both modes alike); then the per-line
 * cost, in process, against the silent GET's Node CPU.
 */
async function loggingRounds(
  say: (m: string) => void,
  log: SwitchableLog,
  probe: ReturnType<typeof installProbe>,
  get: Omit<LoadSpec, 'seconds'>,
  appLog: FastifyBaseLogger,
): Promise<ResultRow[]> {
  const rates = { silent: [] as number[], info: [] as number[] };
  const cpu = { silent: [] as number[], info: [] as number[] };
  const linesBefore = log.lines();
  for (let p = 0; p < LOG_PAIRS; p++) {
    const order: LogMode[] = p % 2 === 0 ? ['silent', 'info'] : ['info', 'silent'];
    for (const mode of order) {
      log.set(mode);
      const before = probe.snapshot();
      const res = await runLoad({ ...get, seconds: LOG_ROUND_SECONDS });
      rates[mode].push(okRate(res));
      cpu[mode].push(delta(before, probe.snapshot(), Math.max(1, res.ok)).nodeCpuMs);
    }
  }
  log.set('silent');
  const µs = (ms: number): string => (ms * 1000).toFixed(0);
  say(`logging pairs (Node CPU per GET, silent / info): ${cpu.silent.map((s, p) => `${µs(s)}/${µs(cpu.info[p]!)}`).join(' ')} µs`);
  const lines = log.lines() - linesBefore;
  const pairShares = cpu.info.map((info, p) => ((info - cpu.silent[p]!) / info) * 100);
  const rateRatios = rates.info.map((info, p) => info / rates.silent[p]!);
  const getCpuUs = median(cpu.silent) * 1000;
  const line = lineCost(log, appLog);
  say(
    `per line, µs of CPU over silent: ${line.blocks.map((x) => x.toFixed(2)).join(' ')}; through pino's serialiser (before session 20) ${line.pinoUs.toFixed(2)} µs`,
  );
  const pairs = `${LOG_PAIRS} pairs of ${LOG_ROUND_SECONDS} s rounds`;
  return [
    {
      figure: `GET travel entry, info request logging to a file through the server's destination: one request's line, CPU`,
      value: line.us,
      unit: 'µs',
      baseline: { label: 'Node CPU of a GET under load, logging silent', value: getCpuUs, unit: 'µs' },
      target: { kind: 'below', max: getCpuUs * 0.02 },
      ratioAs: 'part',
      notes: `target: under 2% of the GET's Node CPU; per line: median of ${LINE_BLOCKS} blocks of ${LINE_BLOCK.toLocaleString('en-US')} lines, each against a silent block beside it; the GET: median of the ${pairs}' silent rounds; the same line through pino's serialiser, as before session 20: ${line.pinoUs.toFixed(2)} µs (${((line.pinoUs / getCpuUs) * 100).toFixed(1)}%)`,
    },
    {
      figure: `GET travel entry, info request logging to a file through the server's destination, requests/s under load (diagnostic)`,
      value: median(rates.info),
      unit: 'requests/s',
      baseline: { label: 'the same GET, logging silent, same pairs', value: median(rates.silent), unit: 'requests/s' },
      target: undefined,
      notes: `${pairs}; info ${roundsNote(rates.info)}; silent ${roundsNote(rates.silent)}; median of the pairs' ratios ${(median(rateRatios) * 100).toFixed(0)}%; logging's share of the Node CPU per GET by pair ${pairShares.map((x) => x.toFixed(1)).join(' / ')}% (median ${median(pairShares).toFixed(1)}%); ${lines} lines logged in the info rounds`,
    },
  ];
}

/**
 * The CPU of one request's line: the per-request child of Fastify's logger, made as Fastify makes
 * it, and the line a GET logged, its fields as they were, written as the server writes it
 * (src/http/request-line.ts) through the same logger and destination; each block of lines at info
 * against a silent block beside it (the child logger is made in both). Beside them, the same line
 * through pino's own serialiser (`info`), what the server wrote before session 20: a same-run A/B.
 */
function lineCost(log: SwitchableLog, appLog: FastifyBaseLogger): { us: number; blocks: number[]; pinoUs: number } {
  const logged = log.firstLine();
  if (logged === undefined) throw new Error('the info rounds logged no line');
  const {
    level: _level,
    time: _time,
    pid: _pid,
    hostname: _hostname,
    reqId,
    msg: _msg,
    ...fields
  } = JSON.parse(logged) as Record<string, unknown>;
  const line = fields as unknown as RequestLine;
  // Fastify's default child logger factory: logger.child(bindings, {}) (no route-level options here).
  const requestLog = (): FastifyBaseLogger => appLog.child({ reqId }, {});
  if (requestLineStream(requestLog()) === undefined) throw new Error("a request's logger does not write the line directly");
  type Way = 'silent' | 'direct' | 'pino';
  const block = (way: Way): number => {
    log.set(way === 'silent' ? 'silent' : 'info');
    const start = process.cpuUsage();
    if (way === 'pino') for (let i = 0; i < LINE_BLOCK; i++) requestLog().info({ ...line }, REQUEST_COMPLETED);
    else for (let i = 0; i < LINE_BLOCK; i++) logRequestCompleted(requestLog(), { ...line });
    const used = process.cpuUsage(start);
    return (used.user + used.system) / LINE_BLOCK;
  };
  const blocks: number[] = [];
  const pinoBlocks: number[] = [];
  const orders: Way[][] = [
    ['silent', 'direct', 'pino'],
    ['pino', 'direct', 'silent'],
    ['direct', 'silent', 'pino'],
  ];
  for (let b = 0; b < LINE_BLOCKS; b++) {
    const cost = Object.fromEntries(orders[b % orders.length]!.map((way) => [way, block(way)])) as Record<Way, number>;
    blocks.push(cost.direct - cost.silent);
    pinoBlocks.push(cost.pino - cost.silent);
  }
  log.set('silent');
  return { us: median(blocks), blocks, pinoUs: median(pinoBlocks) };
}
