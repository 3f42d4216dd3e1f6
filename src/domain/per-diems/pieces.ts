// The spans a row covers. HR and SI count 24-hour blocks over the trip: a row is a leg. CZ and SK
// count calendar days of the employer's country: a row is a leg's part within one such day, cut at
// that zone's midnight and shown in the caller's wall clock of the leg's country.
import type { Leg } from './itinerary.js';
import type { MealCount } from './model.js';
import { DAY_MS, HOUR_MS, offsetAt, utcToWall, wallDateInRange, wallToUtc } from './wall-clock.js';

export interface Piece {
  readonly leg: Leg;
  readonly startMs: number;
  readonly endMs: number;
  readonly startWall: string;
  readonly endWall: string;
  /** Calendar date of the piece in the law's zone (CZ, SK) or the leg's start date (HR, SI). */
  readonly day: string;
  /** Provided meals the caller keyed to this row. */
  meals: MealCount;
}

export const NO_MEALS: MealCount = { breakfasts: 0, lunches: 0, dinners: 0 };

export const pieceMs = (p: Piece): number => p.endMs - p.startMs;
export const isDomestic = (p: Piece, law: string): boolean => p.leg.countryCode === law;

/** The key of a row for per-row meals: its country and departure wall time. */
export const rowKey = (countryCode: string, wall: string): string => `${countryCode} ${wall}`;

export function legPieces(legs: readonly Leg[]): Piece[] {
  return legs.map((leg) => ({
    leg,
    startMs: leg.startMs,
    endMs: leg.endMs,
    startWall: leg.startWall,
    endWall: leg.endWall,
    day: leg.startWall.slice(0, 10),
    meals: NO_MEALS,
  }));
}

/** Legs cut at each midnight of `zone`; a zero-length leg stays one (empty) piece. */
export function dayPieces(legs: readonly Leg[], zone: string): Piece[] {
  const pieces: Piece[] = [];
  for (const leg of legs) {
    let start = leg.startMs;
    let startWall = leg.startWall;
    // Midnights as wall-clock milliseconds of the law's zone, turned into instants one by one.
    let dayWall = Math.floor((start + offsetAt(zone, start)) / DAY_MS) * DAY_MS;
    for (;;) {
      const day = wallDateInRange(dayWall) ?? new Date(dayWall).toISOString().slice(0, 10);
      const nextMidnight = wallToUtc(dayWall + DAY_MS, zone);
      if (nextMidnight >= leg.endMs) {
        pieces.push({ leg, startMs: start, endMs: leg.endMs, startWall, endWall: leg.endWall, day, meals: NO_MEALS });
        break;
      }
      const wall = utcToWall(nextMidnight, leg.zone);
      pieces.push({ leg, startMs: start, endMs: nextMidnight, startWall, endWall: wall, day, meals: NO_MEALS });
      start = nextMidnight;
      startWall = wall;
      dayWall += DAY_MS;
    }
  }
  return pieces;
}

/** Hours as a decimal string with up to 2 places (`12.5`, `23`, `0.02`): whole hundredths, written as digits. */
export function hoursText(ms: number): string {
  const hundredths = Math.round((ms / HOUR_MS) * 100);
  const whole = Math.floor(hundredths / 100);
  const rest = hundredths - whole * 100;
  if (rest === 0) return String(whole);
  return rest % 10 === 0 ? `${whole}.${rest / 10}` : `${whole}.${rest < 10 ? '0' : ''}${rest}`;
}
