// The shape every benchmark shares: a named measurement that returns result rows, each a figure
// next to a baseline measured in the same run, with its target and verdict.

export type Target =
  /** value / baseline must be at least `min`. */
  | { kind: 'ratio'; min: number }
  /** value must be at least `min` (in the row's unit). */
  | { kind: 'atLeast'; min: number }
  /** value must stay below `max` (in the row's unit). */
  | { kind: 'below'; max: number };

export interface ResultRow {
  /** What was measured, e.g. "Append, 1 event per command, 16 writers". */
  figure: string;
  value: number;
  unit: string;
  baseline?: { label: string; value: number; unit: string } | undefined;
  target: Target | undefined;
  /** `part`: the value is a part of the baseline's cost (a log line's CPU within a GET's), its ratio a share. */
  ratioAs?: 'part';
  /** Extra facts worth printing (rounds, counts, errors). */
  notes?: string | undefined;
}

export interface BenchContext {
  /**
   * Shares a measurement between benchmarks of one run (the HTTP create benchmark shows the
   * append figure of benchmark 1 next to its own). A benchmark run alone computes it itself.
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
  has(key: string): boolean;
  log(message: string): void;
}

export interface Benchmark {
  /** The name used on the command line: `npx tsx bench/run.ts <name>`. */
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<ResultRow[]>;
}

export function ratioOf(row: ResultRow): number | undefined {
  return row.baseline && row.baseline.value > 0 ? row.value / row.baseline.value : undefined;
}

export function verdict(row: ResultRow): 'PASS' | 'MISS' | '—' {
  const t = row.target;
  if (!t) return '—';
  if (t.kind === 'ratio') {
    const r = ratioOf(row);
    return r !== undefined && r >= t.min ? 'PASS' : 'MISS';
  }
  if (t.kind === 'atLeast') return row.value >= t.min ? 'PASS' : 'MISS';
  return row.value < t.max ? 'PASS' : 'MISS';
}

export function targetText(row: ResultRow): string {
  const t = row.target;
  if (!t) return '—';
  if (t.kind === 'ratio') return `≥ ${Math.round(t.min * 100)}% of baseline`;
  if (t.kind === 'atLeast') return `≥ ${formatNumber(t.min)} ${row.unit}`;
  return `< ${formatNumber(t.max)} ${row.unit}`;
}

export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
