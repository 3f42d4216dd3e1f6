// Exact rational arithmetic on bigint for statutory amounts. The per-diem law divides by three
// (Czech thirds), takes percentages of percentages (Slovenian cuts of the 75 % band) and rounds
// only at the end, half up or (Slovak stravné) up to the cent: a fraction of two integers holds
// every intermediate value exactly, which no binary float and no fixed scale does. The domain
// imports no package (src/domain has no dependencies), so this is the decimal library of the core;
// the shell's decimal.js gives the same results (test/domain/per-diems/ratio.test.ts compares them).

export interface Ratio {
  readonly n: bigint;
  /** Always positive. */
  readonly d: bigint;
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  // The engine's fractions are small: Euclid on doubles (exact below 2^53) allocates no bigints.
  if (a <= SAFE && b <= SAFE) {
    let x = Number(a);
    let y = Number(b);
    while (y !== 0) {
      const r = x % y;
      x = y;
      y = r;
    }
    return x === 0 ? 1n : BigInt(x);
  }
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

export function ratio(n: bigint | number, d: bigint | number = 1n): Ratio {
  let nn = BigInt(n);
  let dd = BigInt(d);
  if (dd === 0n) throw new RangeError('division by zero');
  if (dd < 0n) [nn, dd] = [-nn, -dd];
  if (dd === 1n) return { n: nn, d: dd };
  const g = gcd(nn, dd);
  return { n: nn / g, d: dd / g };
}

export const ZERO = ratio(0);
export const ONE = ratio(1);

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

// Rates and amounts are a few hundred numerals read again and again: each read once (bounded).
const decimals = new Map<string, Ratio>();

/** A plain decimal numeral ("90", "27.81", "0.35") as an exact ratio. */
export function fromDecimal(text: string): Ratio {
  let value = decimals.get(text);
  if (value === undefined) {
    value = parseDecimal(text);
    if (decimals.size >= 10_000) decimals.clear();
    decimals.set(text, value);
  }
  return value;
}

function parseDecimal(text: string): Ratio {
  const m = DECIMAL.exec(text);
  if (m === null) throw new RangeError(`not a decimal: ${text}`);
  const fraction = m[3] ?? '';
  const n = BigInt(`${m[2]}${fraction}`) * (m[1] === '-' ? -1n : 1n);
  return ratio(n, 10n ** BigInt(fraction.length));
}

export const add = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d - b.n * a.d, a.d * b.d);
export const mul = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.n, a.d * b.d);
export const div = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d, a.d * b.n);
export const cmp = (a: Ratio, b: Ratio): -1 | 0 | 1 => {
  const x = a.n * b.d - b.n * a.d;
  return x < 0n ? -1 : x > 0n ? 1 : 0;
};
export const max = (a: Ratio, b: Ratio): Ratio => (cmp(a, b) >= 0 ? a : b);
export const min = (a: Ratio, b: Ratio): Ratio => (cmp(a, b) <= 0 ? a : b);
export const sum = (values: readonly Ratio[]): Ratio => values.reduce(add, ZERO);
/** p percent as a ratio (30 -> 3/10). */
export const percent = (p: number): Ratio => ratio(BigInt(Math.round(p * 100)), 10000n);

export type Rounding = 'halfUp' | 'up';

const SCALES = [1n, 10n, 100n, 1000n, 10000n, 100000n, 1000000n];
const scaleOf = (places: number): bigint => SCALES[places] ?? 10n ** BigInt(places);

/** Rounds to `places` decimals: half up (a tie goes away from zero) or up (towards +infinity). */
export function round(value: Ratio, places: number, mode: Rounding = 'halfUp'): Ratio {
  return ratio(scaledUnits(value, places, mode), scaleOf(places));
}

/** The value times 10^places, rounded to a whole number by `mode`. */
function scaledUnits(value: Ratio, places: number, mode: Rounding): bigint {
  const scaled = value.n * scaleOf(places);
  let q = scaled / value.d;
  const r = scaled % value.d;
  if (r !== 0n) {
    if (mode === 'up') {
      if (value.n > 0n) q += 1n;
    } else if (2n * abs(r) >= value.d) {
      q += value.n < 0n ? -1n : 1n;
    }
  }
  return q;
}

/** The value as a fixed-point decimal string with exactly `places` decimals (rounded half up first). */
export function toFixed(value: Ratio, places: number, mode: Rounding = 'halfUp'): string {
  const units = scaledUnits(value, places, mode);
  const negative = units < 0n;
  const digits = abs(units)
    .toString()
    .padStart(places + 1, '0');
  const int = digits.slice(0, digits.length - places);
  const frac = places > 0 ? `.${digits.slice(digits.length - places)}` : '';
  return `${negative ? '-' : ''}${int}${frac}`;
}

/** The shortest decimal string of a value rounded to at most `places` decimals ("2.5", "0.3333"). */
export function toShortDecimal(value: Ratio, places: number): string {
  const fixed = toFixed(value, places);
  if (places === 0) return fixed;
  // Trailing zeros of the decimals go, then a bare point (a loop: two regular expressions cost more).
  let end = fixed.length;
  while (fixed.charCodeAt(end - 1) === 48) end--;
  if (fixed.charCodeAt(end - 1) === 46) end--;
  return end === fixed.length ? fixed : fixed.slice(0, end);
}
