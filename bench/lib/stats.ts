// Small statistics for noisy shared machines: medians of rounds, never a single timing.

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function roundsNote(xs: readonly number[], unit = ''): string {
  return `rounds ${xs.map((x) => Math.round(x).toLocaleString('en-US')).join(' / ')}${unit ? ` ${unit}` : ''}`;
}

export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3) || 3);

export function seconds(start: number): number {
  return (performance.now() - start) / 1000;
}
