// 5. GET /api/v1/travel-entries/{id} with 64 connections (autocannon in its own process), over
// ids of entries created through the API, next to the trivial route /healthz with the same
// settings in the same run (rounds alternate the two). Requests per second and p99 latency.
import { benchCostCenters, entryBody, employeeBody, startBenchApp } from './lib/app.js';
import { okRate, runLoad, type LoadResult } from './lib/load.js';
import { delta, describeDelta, installProbe, type ProbeDelta } from './lib/probe.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { Benchmark } from './lib/types.js';

const CONNECTIONS = 64;
const ROUND_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const ENTRIES = 200;

export const httpGetBenchmark: Benchmark = {
  name: 'http-get',
  description: `GET /api/v1/travel-entries/{id} vs GET /healthz, ${CONNECTIONS} connections, requests/s and p99`,
  async run(ctx) {
    const app = await startBenchApp();
    const probe = installProbe();
    try {
      const employee = await app.call<{ id: string }>('POST', '/api/v1/employees', employeeBody(1), 201);
      const ids: string[] = [];
      const body = entryBody(employee.id, await benchCostCenters(app));
      await Promise.all(
        Array.from({ length: 2 }, async () => {
          while (ids.length < ENTRIES) ids.push((await app.call<{ id: string }>('POST', '/api/v1/travel-entries', body, 201)).id);
        }),
      );
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
      ];
    } finally {
      probe.uninstall();
      await app.close();
    }
  },
};
