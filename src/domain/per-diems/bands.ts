// Duration bands of each law, on exact milliseconds (a minute either side of an edge matters).
// Edges follow ../shared/research/perdiem-verified.md; docs/per-diems.md lists each decision.
import { ONE, ZERO, ratio, type Ratio } from './ratio.js';
import { DAY_MS, HOUR_MS } from './wall-clock.js';

const h = (hours: number): number => hours * HOUR_MS;

/**
 * HR per diems for a span counted in 24-hour blocks: whole blocks plus the remainder's band.
 * ">12 h" is full and "more than 8 h and less than 12 h" half; exactly 12 h counts as full (the
 * employee-favourable reading most software takes) and exactly 8 h as nothing.
 */
export function hrCount(ms: number): Ratio {
  const blocks = Math.floor(ms / DAY_MS);
  const rest = ms - blocks * DAY_MS;
  const band = rest >= h(12) ? ONE : rest > h(8) ? ratio(1, 2) : ZERO;
  return ratio(BigInt(blocks) * band.d + band.n, band.d);
}

/** SI foreign remainder band ("nad X do Y": X < t <= Y): 100 %, 75 %, 25 % or nothing. */
export function siForeignBand(rest: number): Ratio {
  if (rest > h(14)) return ONE;
  if (rest > h(8)) return ratio(3, 4);
  if (rest > h(6)) return ratio(1, 4);
  return ZERO;
}

/** SI domestic remainder band: index into [>6–8 h, >8–12 h, >12–24 h], or -1. */
export function siDomesticBand(rest: number): number {
  if (rest > h(12)) return 2;
  if (rest > h(8)) return 1;
  if (rest > h(6)) return 0;
  return -1;
}

/** SI: how many per diems the whole trip is due (a remainder over 6 h is one more). */
export function siTripCap(ms: number): number {
  const blocks = Math.floor(ms / DAY_MS);
  return blocks + (ms - blocks * DAY_MS > h(6) ? 1 : 0);
}

/** CZ and SK domestic bands of a day: index into [5–12 h, >12–18 h, >18 h] (5 h and 12 h and 18 h in the lower band), or -1. */
export function dayDomesticBand(ms: number): number {
  if (ms > h(18)) return 2;
  if (ms > h(12)) return 1;
  if (ms >= h(5)) return 0;
  return -1;
}

/**
 * CZ foreign share of a day by the time abroad (§170(3)): over 18 h full, over 12 h two thirds,
 * from 1 h to 12 h one third; but when the Czech part of the day earns domestic stravné (5 h or
 * more in Czechia) the third needs more than 5 h abroad.
 */
export function czForeignShare(foreignMs: number, domesticMs: number): Ratio {
  if (foreignMs > h(18)) return ONE;
  if (foreignMs > h(12)) return ratio(2, 3);
  if (foreignMs < h(1)) return ZERO;
  if (domesticMs >= h(5) && foreignMs <= h(5)) return ZERO;
  return ratio(1, 3);
}

/** SK foreign share of a day by the time abroad (§13): up to 6 h a quarter, up to 12 h a half, over 12 h full; no lower limit. */
export function skForeignShare(foreignMs: number): Ratio {
  if (foreignMs <= 0) return ZERO;
  if (foreignMs <= h(6)) return ratio(1, 4);
  if (foreignMs <= h(12)) return ratio(1, 2);
  return ONE;
}
