// Exact decimal strings. Money in commands, events and state is a decimal string computed by the
// shell with a decimal library; the core only checks shapes, compares and adds (allocation shares),
// which scaled bigints do exactly without pulling a library into src/domain.

const DECIMAL = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

interface Scaled {
  units: bigint;
  scale: number;
}

function scaled(value: string): Scaled | null {
  const m = DECIMAL.exec(value);
  if (m === null) return null;
  const fraction = m[3] ?? '';
  const units = BigInt(`${m[2] ?? '0'}${fraction}`);
  return { units: m[1] === '-' ? -units : units, scale: fraction.length };
}

const rescale = (v: Scaled, scale: number): bigint => v.units * 10n ** BigInt(scale - v.scale);

/** A plain decimal numeral: optional minus, no leading zeros, no exponent (`12.50`, `0.3`, `-4`). */
export const isDecimal = (value: string): boolean => DECIMAL.test(value);

/** The largest amount, either sign, that a request may carry or a conversion may produce. */
export const MAX_AMOUNT = 1_000_000_000;

/** Digits after the decimal point. */
export const decimalScale = (value: string): number => scaled(value)?.scale ?? 0;

/** -1, 0 or 1; both arguments must be decimals. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const x = scaled(a);
  const y = scaled(b);
  if (x === null || y === null) throw new TypeError(`not decimals: ${a}, ${b}`);
  const scale = Math.max(x.scale, y.scale);
  const d = rescale(x, scale) - rescale(y, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** The exact sum, trailing fractional zeros removed (`['33.33', '66.67']` -> `'100'`). */
export function sumDecimals(values: readonly string[]): string {
  const parts = values.map((v) => {
    const s = scaled(v);
    if (s === null) throw new TypeError(`not a decimal: ${v}`);
    return s;
  });
  const scale = Math.max(0, ...parts.map((p) => p.scale));
  const total = parts.reduce((acc, p) => acc + rescale(p, scale), 0n);
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`;
}

/** Why the value is not an acceptable amount, or null. */
export function decimalProblem(value: string, opts: { min?: 'zero' | 'positive'; maxScale: number }): string | null {
  if (!isDecimal(value)) return 'Must be a decimal number such as 12.50.';
  if (decimalScale(value) > opts.maxScale) return `At most ${opts.maxScale} decimal places.`;
  const sign = compareDecimals(value, '0');
  if (opts.min === 'positive' && sign <= 0) return 'Must be greater than 0.';
  if (opts.min === 'zero' && sign < 0) return 'Must not be negative.';
  return null;
}
