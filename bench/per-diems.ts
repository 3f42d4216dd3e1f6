// 7. The statutory per-diem engine: alone on one core (4-stop, 3-day itineraries of each of the
// four laws in turn, in process), and the stateless calculator over HTTP (64 connections, an HR
// tenant's 4-stop 3-day itinerary) next to GET /healthz with the same settings in the same run.
// Diagnostic row: the floor under the calculator, the same authenticated POST with the same body
// to a removed operation that answers 410 before any work (authentication, rate limit, body
// parsing, the problem+json answer): what any authenticated POST costs next to /healthz here.
import { calculatePerDiems, type EngineData, type PerDiemRequest } from '../src/domain/per-diems/index.js';
import { withImports } from '../src/domain/per-diems/index.js';
import { shippedRateVersions } from '../src/application/per-diems/shipped-rates.js';
import { countryZones } from '../src/application/per-diems/zones.js';
import { startBenchApp } from './lib/app.js';
import { okRate, runLoad, type LoadResult } from './lib/load.js';
import { delta, installProbe } from './lib/probe.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { Benchmark } from './lib/types.js';

const CONNECTIONS = 64;
const ROUND_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const ENGINE_ROUND_MS = 2000;

const trip = (law: PerDiemRequest['law'], a: string, b: string): PerDiemRequest => ({
  law,
  stops: [
    { countryCode: law, time: '2026-03-02T06:00' },
    { countryCode: a, time: '2026-03-02T09:30' },
    { countryCode: b, time: '2026-03-03T12:00' },
    { countryCode: law, time: '2026-03-04T18:00' },
  ],
  meals: [{ countryCode: a, departureTime: '2026-03-02T09:30', lunchesProvided: 1, dinnersProvided: 1, breakfastsProvided: 0 }],
});

export const ITINERARIES: PerDiemRequest[] = [
  trip('HR', 'AT', 'BA'),
  trip('SI', 'AT', 'HR'),
  trip('CZ', 'DE', 'SK'),
  trip('SK', 'AT', 'HU'),
];

/** Engine data as a process holds it: the shipped tables, a fixed EUR rate (CZ), the zones. */
export function engineData(): EngineData {
  return {
    tables: withImports(shippedRateVersions(), []),
    book: {
      find: (currency, date) => (currency === 'EUR' ? { rate: '25.1', units: 1, direction: 'BasePerForeign', date, source: 'CNB' } : null),
    },
    zonesOf: countryZones(),
  };
}

function engineRound(data: EngineData): number {
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ENGINE_ROUND_MS) {
    for (const it of ITINERARIES) calculatePerDiems(it, data);
    n += ITINERARIES.length;
  }
  return n / ((performance.now() - t0) / 1000);
}

export const perDiemsBenchmark: Benchmark = {
  name: 'per-diems',
  description: `per-diem engine alone (itineraries/s, one core) and POST /utilities/per-diems/calculate vs GET /healthz, ${CONNECTIONS} connections`,
  async run(ctx) {
    const data = engineData();
    engineRound(data); // warm-up (JIT, zone formatters)
    const engine: number[] = [];
    for (let r = 0; r < ROUNDS; r++) engine.push(engineRound(data));
    ctx.log(`engine rounds: ${engine.map((x) => Math.round(x)).join(' / ')} itineraries/s`);

    const app = await startBenchApp();
    // Node CPU per request of this process (the server; the load generator runs in a child): on a
    // shared machine a steadier comparison than requests/s (docs/benchmarks.md, session 8).
    const probe = installProbe();
    try {
      const { law: _law, ...body } = ITINERARIES[0]!;
      await app.call('POST', '/api/v1/utilities/per-diems/calculate', body, 200);
      const headers = { authorization: `Bearer ${app.tenant.key}`, 'content-type': 'application/json' };
      const health = { origin: app.origin, method: 'GET' as const, path: '/healthz', headers, connections: CONNECTIONS };
      const calc = { ...health, method: 'POST' as const, path: '/api/v1/utilities/per-diems/calculate', body: JSON.stringify(body) };
      const floor = { ...calc, path: '/api/v1/per-diems/calculate-simple' };
      const specs = { health, calc, floor };
      // The floor's answers are all 410: its rate counts every answer with that status.
      const rateOf = (which: keyof typeof specs, r: LoadResult): number =>
        which === 'floor' ? (r.statusCodes['410'] ?? 0) / r.seconds : okRate(r);
      await runLoad({ ...health, seconds: 2 });
      await runLoad({ ...calc, seconds: 2 });
      await runLoad({ ...floor, seconds: 1 });
      const f = { calc: [] as LoadResult[], health: [] as LoadResult[], floor: [] as LoadResult[] };
      const cpuUs = { calc: [] as number[], health: [] as number[], floor: [] as number[] };
      const order = ['health', 'calc', 'floor'] as const;
      for (let r = 0; r < ROUNDS; r++) {
        for (const which of r % 2 === 0 ? order : [...order].reverse()) {
          const before = probe.snapshot();
          const res = await runLoad({ ...specs[which], seconds: ROUND_SECONDS });
          f[which].push(res);
          cpuUs[which].push(delta(before, probe.snapshot(), Math.max(1, rateOf(which, res) * res.seconds)).nodeCpuMs * 1000);
        }
        ctx.log(
          `calculator round ${r + 1}: ${Math.round(okRate(f.calc[r]!))} /s p99 ${f.calc[r]!.latencyMs.p99} ms, ${Math.round(cpuUs.calc[r]!)} µs CPU; /healthz ${Math.round(okRate(f.health[r]!))} /s, ${Math.round(cpuUs.health[r]!)} µs CPU; floor ${Math.round(rateOf('floor', f.floor[r]!))} /s, ${Math.round(cpuUs.floor[r]!)} µs CPU`,
        );
      }
      const cpuCalc = median(cpuUs.calc);
      const cpuHealth = median(cpuUs.health);
      const calcRates = f.calc.map(okRate);
      const healthRates = f.health.map(okRate);
      const bad = f.calc.reduce((a, r) => a + r.non2xx + r.errors, 0);
      const floorRates = f.floor.map((r) => rateOf('floor', r));
      const floorBad = f.floor.reduce((a, r) => a + r.ok + r.errors + r.non2xx - (r.statusCodes['410'] ?? 0), 0);
      const cpuFloor = median(cpuUs.floor);
      return [
        {
          figure: 'Per-diem engine alone, 4-stop 3-day itineraries (HR, SI, CZ, SK in turn), one core',
          value: median(engine),
          unit: 'itineraries/s',
          baseline: undefined,
          target: { kind: 'atLeast', min: 20_000 },
          notes: `median of ${ROUNDS} × ${ENGINE_ROUND_MS / 1000} s; ${roundsNote(engine)}`,
        },
        {
          figure: `Per-diem calculator over HTTP, 4-stop 3-day HR itinerary, ${CONNECTIONS} connections`,
          value: median(calcRates),
          unit: 'requests/s',
          baseline: { label: 'GET /healthz, same settings', value: median(healthRates), unit: 'requests/s' },
          target: { kind: 'ratio', min: 0.4 },
          notes: `median of ${ROUNDS} × ${ROUND_SECONDS} s; calculator ${roundsNote(calcRates)}; /healthz ${roundsNote(healthRates)}; non-2xx/errors ${bad}; p99 ${median(f.calc.map((r) => r.latencyMs.p99))} ms; server Node CPU per request ${Math.round(cpuCalc)} µs against ${Math.round(cpuHealth)} µs per /healthz (${((cpuHealth / cpuCalc) * 100).toFixed(0)}%)`,
        },
        {
          figure: `(diagnostic) the floor: the same authenticated POST answered 410 before any work, ${CONNECTIONS} connections`,
          value: median(floorRates),
          unit: 'requests/s',
          baseline: { label: 'GET /healthz, same settings', value: median(healthRates), unit: 'requests/s' },
          target: undefined,
          notes: `median of ${ROUNDS} × ${ROUND_SECONDS} s; ${roundsNote(floorRates)}; answers other than 410: ${floorBad}; server Node CPU per request ${Math.round(cpuFloor)} µs; the calculator's own work is the rest of its ${Math.round(cpuCalc)} µs`,
        },
      ];
    } finally {
      probe.uninstall();
      await app.close();
    }
  },
};
