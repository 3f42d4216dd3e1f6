// 10. GET /api/v1/travel-entries?pageSize=50 (issue 13) with 64 connections (autocannon in its own
// process) over 500 entries created through the API, next to /healthz and to GET of single entries
// with the same settings in the same run (rounds alternate the three). Requests per second, p50 and
// p99, and this process's RSS sampled under load: the list's peak against the single GET's peak.
import { seedEntries, startBenchApp } from './lib/app.js';
import { okRate, runLoad, type LoadResult, type LoadSpec } from './lib/load.js';
import { delta, describeDelta, installProbe, type ProbeDelta } from './lib/probe.js';
import { median, roundsNote, ROUNDS } from './lib/stats.js';
import type { Benchmark } from './lib/types.js';

const CONNECTIONS = 64;
const ROUND_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const ENTRIES = 500;
const LIST_PATH = '/api/v1/travel-entries?pageSize=50';
const MB = 1024 * 1024;

type Which = 'list' | 'get' | 'health';

/** Runs the load while sampling this process's RSS every 50 ms; the peak, in MB. */
async function loadWithRss(spec: LoadSpec): Promise<{ res: LoadResult; rssPeakMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  try {
    const res = await runLoad(spec);
    return { res, rssPeakMb: peak / MB };
  } finally {
    clearInterval(timer);
  }
}

export const httpListBenchmark: Benchmark = {
  name: 'http-list',
  description: `GET ${LIST_PATH} vs GET /healthz and GET of one entry, ${CONNECTIONS} connections: requests/s, p50/p99, RSS`,
  async run(ctx) {
    const app = await startBenchApp();
    const probe = installProbe();
    try {
      const ids = await seedEntries(app, ENTRIES);
      const page = await fetch(`${app.origin}${LIST_PATH}`, { headers: { authorization: `Bearer ${app.tenant.key}` } });
      const pageBytes = (await page.arrayBuffer()).byteLength;
      const sequential = 50;
      const s0 = probe.snapshot();
      for (let i = 0; i < sequential; i++) await app.call('GET', LIST_PATH);
      ctx.log(
        describeDelta(delta(s0, probe.snapshot(), sequential), 'sequential list page (Node CPU includes the in-process fetch client)'),
      );

      const headers = { authorization: `Bearer ${app.tenant.key}` };
      const health = { origin: app.origin, method: 'GET' as const, path: '/healthz', headers, connections: CONNECTIONS };
      const specs: Record<Which, LoadSpec> = {
        health: { ...health, seconds: ROUND_SECONDS },
        list: { ...health, path: LIST_PATH, seconds: ROUND_SECONDS },
        get: {
          ...health,
          path: `/api/v1/travel-entries/${ids[0]}`,
          variants: ids.map((id) => ({ path: `/api/v1/travel-entries/${id}` })),
          seconds: ROUND_SECONDS,
        },
      };
      for (const w of ['health', 'get', 'list'] as const) await runLoad({ ...specs[w], seconds: 2 }); // warm-up
      const f: Record<Which, LoadResult[]> = { list: [], get: [], health: [] };
      const rss: Record<Which, number[]> = { list: [], get: [], health: [] };
      const probes: Record<Which, ProbeDelta[]> = { list: [], get: [], health: [] };
      const orders: Which[][] = [
        ['health', 'get', 'list'],
        ['list', 'health', 'get'],
        ['get', 'list', 'health'],
      ];
      for (let r = 0; r < ROUNDS; r++) {
        for (const which of orders[r % orders.length]!) {
          const before = probe.snapshot();
          const { res, rssPeakMb } = await loadWithRss(specs[which]);
          f[which].push(res);
          rss[which].push(rssPeakMb);
          probes[which].push(delta(before, probe.snapshot(), Math.max(1, res.ok)));
        }
        const line = (w: Which): string => {
          const x = f[w][r]!;
          return `${w} ${Math.round(okRate(x))} /s p50 ${x.latencyMs.p50} p99 ${x.latencyMs.p99} ms RSS ${Math.round(rss[w][r]!)} MB (non-2xx ${x.non2xx}, errors ${x.errors})`;
        };
        ctx.log(`list round ${r + 1}: ${line('list')}; ${line('get')}; ${line('health')}`);
      }
      const rates = (w: Which): number[] => f[w].map(okRate);
      const p = (w: Which, q: 'p50' | 'p99'): number[] => f[w].map((x) => x.latencyMs[q]);
      const bad = f.list.reduce((a, x) => a + x.non2xx + x.errors, 0);
      const cpu = (w: Which): string =>
        `${median(probes[w].map((d) => d.statements)).toFixed(1)} SQL statements, CPU ${median(probes[w].map((d) => d.nodeCpuMs)).toFixed(2)} ms Node + ${median(probes[w].map((d) => d.pgCpuMs)).toFixed(2)} ms PostgreSQL`;
      const rssPeak = (w: Which): number => Math.max(...rss[w]);
      return [
        {
          figure: `List of 50 travel entries, ${CONNECTIONS} connections`,
          value: median(rates('list')),
          unit: 'requests/s',
          baseline: { label: 'GET /healthz, same settings', value: median(rates('health')), unit: 'requests/s' },
          target: { kind: 'ratio', min: 0.25 },
          notes: `median of ${ROUNDS} × ${ROUND_SECONDS} s, ${ENTRIES} entries, ${Math.round(pageBytes / 1024)} KB a page; list ${roundsNote(rates('list'))}; /healthz ${roundsNote(rates('health'))}; GET one entry ${roundsNote(rates('get'))} (median ${Math.round(median(rates('get')))}); non-2xx/errors ${bad}; per page under load: ${cpu('list')}; per GET: ${cpu('get')}`,
        },
        {
          figure: `List of 50 travel entries p99 latency, ${CONNECTIONS} connections`,
          value: median(p('list', 'p99')),
          unit: 'ms',
          baseline: { label: '/healthz p99, same settings', value: median(p('health', 'p99')), unit: 'ms' },
          target: { kind: 'below', max: 50 },
          notes: `p99 list rounds ${p('list', 'p99').join(' / ')} ms, p50 ${p('list', 'p50').join(' / ')} ms; GET one entry p99 ${p('get', 'p99').join(' / ')} ms; /healthz p99 ${p('health', 'p99').join(' / ')} ms`,
        },
        {
          figure: `RSS under list load over the single-GET run, ${CONNECTIONS} connections`,
          value: rssPeak('list') - rssPeak('get'),
          unit: 'MB',
          baseline: { label: 'peak RSS under single-GET load', value: rssPeak('get'), unit: 'MB' },
          target: { kind: 'below', max: 50 },
          notes: `peak RSS per round (sampled every 50 ms in the server process): list ${rss.list.map(Math.round).join(' / ')} MB; GET ${rss.get.map(Math.round).join(' / ')} MB; /healthz ${rss.health.map(Math.round).join(' / ')} MB`,
        },
      ];
    } finally {
      probe.uninstall();
      await app.close();
    }
  },
};
