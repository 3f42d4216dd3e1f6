// 5. GET /api/v1/travel-entries/{id} with 64 connections (autocannon in its own process), over
// ids of entries created through the API, next to the trivial route /healthz with the same
// settings in the same run (rounds alternate the two). Requests per second and p99 latency.
// Diagnostic (issue 13): the same GET with info-level request logging to a file, through the
// server's destination (64 KB pieces) and through one that writes each line, against the same GET
// silent, rounds rotating the three on the one app: logging's share of a GET's CPU.
import { seedEntries, startBenchApp } from './lib/app.js';
import { okRate, runLoad, type LoadResult, type LoadSpec } from './lib/load.js';
import { delta, describeDelta, installProbe, type ProbeDelta } from './lib/probe.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { Benchmark, ResultRow } from './lib/types.js';
import { switchableLog, type LogMode, type SwitchableLog } from './lib/switchable-log.js';

const CONNECTIONS = 64;
const ROUND_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const ENTRIES = 200;
const LOG_ROUND_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 4);
const LOG_MODES: LogMode[] = ['silent', 'info-pieces', 'info-lines'];

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
      const logging = await loggingRounds(ctx.log, log, probe, get);
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

/** GET rounds in each log mode, rotating; rates and Node CPU per GET against the silent rounds. */
async function loggingRounds(
  say: (m: string) => void,
  log: SwitchableLog,
  probe: ReturnType<typeof installProbe>,
  get: Omit<LoadSpec, 'seconds'>,
): Promise<ResultRow[]> {
  const rates = { silent: [] as number[], 'info-pieces': [] as number[], 'info-lines': [] as number[] };
  const cpu = { silent: [] as number[], 'info-pieces': [] as number[], 'info-lines': [] as number[] };
  const linesBefore = log.lines();
  for (let r = 0; r < ROUNDS; r++) {
    const order = [...LOG_MODES.slice(r % 3), ...LOG_MODES.slice(0, r % 3)];
    for (const mode of order) {
      log.set(mode);
      const before = probe.snapshot();
      const res = await runLoad({ ...get, seconds: LOG_ROUND_SECONDS });
      rates[mode].push(okRate(res));
      cpu[mode].push(delta(before, probe.snapshot(), Math.max(1, res.ok)).nodeCpuMs);
    }
    say(
      `logging round ${r + 1}: ${LOG_MODES.map((m) => `${m} ${Math.round(rates[m][r]!)} /s ${(cpu[m][r]! * 1000).toFixed(0)} µs CPU`).join('; ')}`,
    );
  }
  log.set('silent');
  const silentCpu = median(cpu.silent);
  const share = (mode: LogMode): string => `${(((median(cpu[mode]) - silentCpu) / median(cpu[mode])) * 100).toFixed(1)}%`;
  const cpuNote = (mode: LogMode): string =>
    `Node CPU per GET ${(median(cpu[mode]) * 1000).toFixed(0)} µs against ${(silentCpu * 1000).toFixed(0)} µs silent: logging ${share(mode)} of the GET's CPU`;
  const baseline = { label: 'the same GET, logging silent, same rounds', value: median(rates.silent), unit: 'requests/s' };
  const lines = log.lines() - linesBefore;
  return [
    {
      figure: `GET travel entry, info request logging to a file, the server's destination: 64 KB pieces (diagnostic)`,
      value: median(rates['info-pieces']),
      unit: 'requests/s',
      baseline,
      target: { kind: 'ratio', min: 0.98 },
      notes: `median of ${ROUNDS} × ${LOG_ROUND_SECONDS} s; ${roundsNote(rates['info-pieces'])}; silent ${roundsNote(rates.silent)}; ${cpuNote('info-pieces')}; ${lines} lines logged in the info rounds`,
    },
    {
      figure: `GET travel entry, info request logging to a file, one synchronous write per line (diagnostic)`,
      value: median(rates['info-lines']),
      unit: 'requests/s',
      baseline,
      target: undefined,
      notes: `${roundsNote(rates['info-lines'])}; ${cpuNote('info-lines')}`,
    },
  ];
}
