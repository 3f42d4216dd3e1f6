// 4. Create-entry commands per second over HTTP: 16 concurrent clients (autocannon in its own
// process) POST a realistic EUR travel entry with expenses, a per diem and allocations to the full
// app (ROLE all) on the real PostgreSQL. The figure: all 16 clients in one tenant, as one partner
// integration would. Diagnostic row: the same 16 clients spread over 16 tenants (rounds alternate),
// which separates what the per-tenant entry-number stream costs from the rest of the command. A
// second diagnostic row (PostgreSQL): one tenant with the store's multi-stream append hidden, so each
// create appends its number's reservation, its claim and the entry one by one (the EventStoreDB
// path, and every create before issue 13): the same-run A/B of the atomic append. A third (session
// 22): one tenant with an Idempotency-Key of its own on every create, the cost of the key's claim.
// Shown next to the append figure of benchmark 1 (same run; measured here when run alone).
// Diagnostics (lib/probe.ts): SQL statements, Node and PostgreSQL-backend CPU, and the time spent
// in event-store calls and the read-your-writes wait, per create, for sequential creates before
// the load and for every load round.
import { measureAppend, WRITERS } from './append.js';
import { benchCostCenters, entryBody, employeeBody, startBenchApp } from './lib/app.js';
import { okRate, runLoad, type LoadResult, type LoadSpec } from './lib/load.js';
import { delta, describeDelta, installProbe, type ProbeDelta } from './lib/probe.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { Benchmark, ResultRow } from './lib/types.js';

const CLIENTS = 16;
const ROUND_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 8);
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function describe(r: LoadResult): string {
  return `${Math.round(okRate(r))} creates/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, statuses ${JSON.stringify(r.statusCodes)}, errors ${r.errors}`;
}

export const httpCreateBenchmark: Benchmark = {
  name: 'http-create',
  description: `POST /api/v1/travel-entries, ${CLIENTS} concurrent clients, full app on PostgreSQL, vs the store's append rate`,
  async run(ctx) {
    const append = await ctx.memo('append', () => measureAppend(ctx, { rounds: 2 }));
    const app = await startBenchApp();
    const probe = installProbe();
    // appendToStreams: a create's number and entry in one atomic append (issue 13); counted as one append.
    probe.time(app.rt.store, ['appendToStream', ...(app.rt.store.appendToStreams ? ['appendToStreams'] : []), 'readStream'], 'store');
    probe.time(app.rt.runner, ['waitFor'], 'runner');
    try {
      const employee = await app.call<{ id: string }>('POST', '/api/v1/employees', employeeBody(1), 201);
      const body = JSON.stringify(entryBody(employee.id, await benchCostCenters(app)));
      const sequential = 50;
      const s0 = probe.snapshot();
      for (let i = 0; i < sequential; i++) await app.call('POST', '/api/v1/travel-entries', JSON.parse(body), 201);
      const seq = delta(s0, probe.snapshot(), sequential);
      ctx.log(
        describeDelta(
          seq,
          'sequential create (whole process: API + projections + webhook worker; Node CPU includes the in-process fetch client)',
        ),
      );

      const tenants = await Promise.all(
        Array.from({ length: CLIENTS }, async (_, i) => {
          const t = await app.newTenant();
          const e = await app.call<{ id: string }>('POST', '/api/v1/employees', employeeBody(i), 201, t.key);
          return { authorization: `Bearer ${t.key}`, body: JSON.stringify(entryBody(e.id, await benchCostCenters(app, t.key))) };
        }),
      );
      const oneTenant: LoadSpec = {
        origin: app.origin,
        method: 'POST',
        path: '/api/v1/travel-entries',
        body,
        connections: CLIENTS,
        seconds: ROUND_SECONDS,
        headers: { authorization: `Bearer ${app.tenant.key}`, 'content-type': 'application/json' },
      };
      const manyTenants: LoadSpec = { ...oneTenant, variants: tenants };
      await runLoad({ ...oneTenant, seconds: 2 }); // warm-up
      const store = app.rt.store as { appendToStreams?: unknown };
      const multi = store.appendToStreams;
      const kinds = multi ? (['one', 'many', 'split', 'keyed'] as const) : (['one', 'many', 'keyed'] as const);
      const label = {
        one: 'one tenant',
        many: `${CLIENTS} tenants`,
        split: 'one tenant, three appends per create',
        keyed: 'one tenant, an Idempotency-Key on every create',
      };
      const f = { one: [] as LoadResult[], many: [] as LoadResult[], split: [] as LoadResult[], keyed: [] as LoadResult[] };
      const probes = { one: [] as ProbeDelta[], many: [] as ProbeDelta[], split: [] as ProbeDelta[], keyed: [] as ProbeDelta[] };
      const run = Date.now().toString(36);
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 === 0 ? kinds : [...kinds].reverse();
        for (const which of order) {
          await pause(1000); // let requests the previous load left in flight finish
          if (which === 'split') store.appendToStreams = undefined;
          const before = probe.snapshot();
          const spec =
            which === 'many'
              ? manyTenants
              : which === 'keyed'
                ? // A key of its own per request (never a replay): what a careful integration sends.
                  { ...oneTenant, uniqueHeader: { name: 'Idempotency-Key', prefix: `${run}-${r}` } }
                : oneTenant;
          const res = await runLoad(spec).finally(() => {
            store.appendToStreams = multi;
          });
          f[which].push(res);
          probes[which].push(delta(before, probe.snapshot(), Math.max(1, res.ok)));
        }
        for (const which of kinds) {
          ctx.log(`create round ${r + 1}, ${label[which]}: ${describe(f[which][r]!)}`);
          ctx.log(describeDelta(probes[which][r]!, 'create under load', r === 0 ? 12 : 0));
        }
      }
      const baseline = {
        label: `store append, 1 event per command, ${WRITERS} writers (benchmark 1)`,
        value: append.storeMedian,
        unit: 'events/s',
      };
      const row = (which: 'one' | 'many' | 'split' | 'keyed', figure: string, target: ResultRow['target']): ResultRow => {
        const rates = f[which].map(okRate);
        const bad = f[which].reduce((a, r) => a + r.non2xx + r.errors, 0);
        const p = probes[which];
        const method = (d: ProbeDelta, k: string) => d.methods.find(([n]) => n === k)?.[1];
        const inside = (k: string): string => median(p.map((d) => method(d, k)?.ms ?? 0)).toFixed(0);
        const appends = (d: ProbeDelta): number =>
          (method(d, 'store.appendToStream')?.calls ?? 0) + (method(d, 'store.appendToStreams')?.calls ?? 0);
        return {
          figure,
          value: median(rates),
          unit: 'creates/s',
          baseline,
          target,
          notes:
            `${figure}: median of ${ROUNDS} × ${ROUND_SECONDS} s; ${roundsNote(rates)}; p50 ${median(f[which].map((r) => r.latencyMs.p50))} ms, ` +
            `p99 ${median(f[which].map((r) => r.latencyMs.p99))} ms; non-2xx/errors ${bad}; per create: ` +
            `${median(p.map((d) => d.statements)).toFixed(1)} SQL statements, CPU ${median(p.map((d) => d.nodeCpuMs)).toFixed(1)} ms Node + ${median(p.map((d) => d.pgCpuMs)).toFixed(1)} ms PostgreSQL, ` +
            `${median(p.map(appends)).toFixed(2)} appends (of them ${median(p.map((d) => method(d, 'store.appendToStreams')?.calls ?? 0)).toFixed(2)} multi-stream); ` +
            `time inside appendToStream ${inside('store.appendToStream')} ms, appendToStreams ${inside('store.appendToStreams')} ms, ` +
            `readStream ${inside('store.readStream')} ms, read-your-writes wait ${inside('runner.waitFor')} ms` +
            (which === 'one'
              ? `; sequential: ${seq.statements.toFixed(1)} statements per create; plain-INSERT baseline of benchmark 1: ${Math.round(append.baselineMedian)} rows/s`
              : ''),
        };
      };
      return [
        row('one', `Create entry over HTTP, ${CLIENTS} clients, one tenant`, { kind: 'atLeast', min: 500 }),
        row('many', `(diagnostic) the same, ${CLIENTS} clients over ${CLIENTS} tenants`, undefined),
        ...(multi ? [row('split', `(diagnostic) one tenant, number and entry in three appends (no multi-stream append)`, undefined)] : []),
        row('keyed', `(diagnostic) one tenant, an Idempotency-Key on every create`, undefined),
      ];
    } finally {
      probe.uninstall();
      await app.close();
    }
  },
};
