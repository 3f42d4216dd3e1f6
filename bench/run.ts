// `npm run bench`: every benchmark in sequence, then one table of figures, baselines measured in
// the same run, ratios, targets and PASS/MISS. `npx tsx bench/run.ts append catch-up` runs only the
// named ones. Benchmarks are not tests: they never run under `npm test`.
//
// To add a benchmark: write bench/<name>.ts exporting a `Benchmark` (see lib/types.ts) and add it
// to BENCHMARKS below. Figures shared between benchmarks go through ctx.memo.
import { appendBenchmark } from './append.js';
import { catchUpBenchmark } from './catch-up.js';
import { rebuildBenchmark } from './rebuild.js';
import { httpCreateBenchmark } from './http-create.js';
import { httpGetBenchmark } from './http-get.js';
import { webhooksBenchmark } from './webhooks.js';
import { perDiemsBenchmark } from './per-diems.js';
import { eventFeedBenchmark } from './event-feed.js';
import { auditBenchmark } from './audit.js';
import { httpListBenchmark } from './http-list.js';
import { peersBenchmark } from './peers.js';
import { describeMachine } from './lib/machine.js';
import { tuneGarbageCollector } from '../src/main/gc-tuning.js';
import { formatNumber, ratioOf, targetText, verdict, type BenchContext, type Benchmark, type ResultRow } from './lib/types.js';

export const BENCHMARKS: Benchmark[] = [
  appendBenchmark,
  catchUpBenchmark,
  rebuildBenchmark,
  httpCreateBenchmark,
  httpGetBenchmark,
  webhooksBenchmark,
  perDiemsBenchmark,
  eventFeedBenchmark,
  auditBenchmark,
  httpListBenchmark,
  peersBenchmark,
];

function context(): BenchContext {
  const memos = new Map<string, Promise<unknown>>();
  return {
    memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
      let p = memos.get(key) as Promise<T> | undefined;
      if (!p) memos.set(key, (p = compute()));
      return p;
    },
    has: (key) => memos.has(key),
    log: (message) => process.stderr.write(`  ${message}\n`),
  };
}

export function markdownTable(rows: { bench: string; row: ResultRow }[]): string {
  const lines = ['| # | Figure | Value | Baseline (same run) | Ratio | Target | Result |', '|---|---|---:|---|---:|---|---|'];
  rows.forEach(({ bench, row }, i) => {
    const ratio = ratioOf(row);
    // Latencies compare as a factor (9.7×), rates as a share of the baseline (19%), a part of the
    // baseline's cost as a share to the tenth (1.4%).
    const ratioText =
      ratio === undefined
        ? '—'
        : row.ratioAs === 'part'
          ? `${(ratio * 100).toFixed(1)}%`
          : row.target?.kind === 'below'
            ? `${ratio.toFixed(1)}×`
            : `${(ratio * 100).toFixed(0)}%`;
    lines.push(
      `| ${i + 1} | ${row.figure} (\`${bench}\`) | ${formatNumber(row.value)} ${row.unit} | ${
        row.baseline ? `${formatNumber(row.baseline.value)} ${row.baseline.unit} (${row.baseline.label})` : '—'
      } | ${ratioText} | ${targetText(row)} | ${verdict(row)} |`,
    );
  });
  return lines.join('\n');
}

async function main(): Promise<void> {
  // The production process's V8 settings (start.ts): the HTTP figures measure that process.
  tuneGarbageCollector();
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
    process.exit(2);
  }
  const selected = names.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => names.includes(b.name));
  const ctx = context();
  const results: { bench: string; row: ResultRow }[] = [];
  const failures: string[] = [];
  const started = performance.now();
  const machine = await describeMachine();
  console.error(machine);
  for (const b of selected) {
    console.error(`\n▶ ${b.name}: ${b.description}`);
    const t0 = performance.now();
    try {
      for (const row of await b.run(ctx)) results.push({ bench: b.name, row });
    } catch (err) {
      failures.push(b.name);
      console.error(`  ${b.name} failed:`, err);
    }
    console.error(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  console.log(`\n${machine}\n\n${markdownTable(results)}\n`);
  for (const [i, { row }] of results.entries()) if (row.notes) console.log(`${i + 1}. ${row.notes}`);
  console.log(
    `\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s; ${results.filter((r) => verdict(r.row) === 'MISS').length} MISS${
      failures.length ? `; FAILED: ${failures.join(', ')}` : ''
    }`,
  );
  process.exit(failures.length > 0 ? 1 : 0);
}

await main();
