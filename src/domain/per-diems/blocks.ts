// 24-hour blocks over a pool of pieces (the foreign time of an HR trip, a country's time on an SI
// trip), counted chronologically over the pool's own clock. `count` gives the per diems due for a
// span; a piece gets what the count grows by while it runs, so the pool's total is exactly the
// count of its whole time. Each per diem starts where the pool's clock read the beginning of its
// block, and its date picks the amounts in force (a trip across a rate change pays each block at
// its own rate).
import type { Ratio } from './ratio.js';
import { add, cmp, min, ONE, sub, ZERO } from './ratio.js';
import { pieceMs, type Piece } from './pieces.js';
import { DAY_MS } from './wall-clock.js';

export interface PoolItem {
  readonly piece: number;
  /** 1, or the part of one the band gives (a half, 75 %, …). */
  readonly units: Ratio;
  /** The instant the item's block began on the pool's clock. */
  readonly startMs: number;
}

/** The instant at which the pool's clock reads `at` milliseconds. */
export function instantAt(pieces: readonly Piece[], pool: readonly number[], at: number): number {
  let acc = 0;
  for (const i of pool) {
    const ms = pieceMs(pieces[i]!);
    if (at < acc + ms) return pieces[i]!.startMs + (at - acc);
    acc += ms;
  }
  return pieces[pool[pool.length - 1]!]!.endMs;
}

/**
 * Per diems of a pool: piece k gets count(clock after k) − count(clock before k), split into
 * items of one and a last part, each dated by its block. `cap` (HR domestic) stops the count.
 */
export function poolItems(pieces: readonly Piece[], pool: readonly number[], count: (ms: number) => Ratio, cap?: Ratio): PoolItem[] {
  const items: PoolItem[] = [];
  let clock = 0;
  let given = ZERO;
  let block = 0;
  for (const i of pool) {
    const before = count(clock);
    clock += pieceMs(pieces[i]!);
    let due = sub(count(clock), before);
    if (cap !== undefined) due = min(due, sub(cap, given));
    while (cmp(due, ZERO) > 0) {
      const units = min(ONE, due);
      items.push({ piece: i, units, startMs: instantAt(pieces, pool, block * DAY_MS) });
      given = add(given, units);
      due = sub(due, units);
      if (cmp(units, ONE) === 0) block++;
    }
  }
  return items;
}
