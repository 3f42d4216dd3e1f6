// What the Czech and Slovak laws share: they judge each calendar day on its own, pay one foreign
// amount a day at the rate of the country where most of that day's time abroad was spent (equal
// time: the rate more favourable to the employee), and put a day's amount on one row of that day.
import { ZERO, type Ratio } from './ratio.js';
import type { LawContext, RowDraft } from './context.js';
import { isDomestic, pieceMs, type Piece } from './pieces.js';
import { cmp, fromDecimal } from './ratio.js';
import type { ForeignRate } from './rate-table.js';
import type { MealCount } from './model.js';

export interface Day {
  readonly date: string;
  readonly indices: readonly number[];
}

export function calendarDays(pieces: readonly Piece[]): Day[] {
  const days = new Map<string, number[]>();
  pieces.forEach((p, i) => {
    const list = days.get(p.day) ?? [];
    list.push(i);
    days.set(p.day, list);
  });
  return [...days].map(([date, indices]) => ({ date, indices }));
}

/** The longest of the pieces (the first of equals): the row that shows the day's amount. */
export function longest(pieces: readonly Piece[], indices: readonly number[]): number | null {
  let best: number | null = null;
  for (const i of indices) if (best === null || pieceMs(pieces[i]!) > pieceMs(pieces[best]!)) best = i;
  return best;
}

export const domesticOf = (pieces: readonly Piece[], day: Day, law: string): number[] =>
  day.indices.filter((i) => isDomestic(pieces[i]!, law));
export const foreignOf = (pieces: readonly Piece[], day: Day, law: string): number[] =>
  day.indices.filter((i) => !isDomestic(pieces[i]!, law));
export const msOf = (pieces: readonly Piece[], indices: readonly number[]): number =>
  indices.reduce((acc, i) => acc + pieceMs(pieces[i]!), 0);

export function mealsOf(pieces: readonly Piece[], indices: readonly number[]): MealCount {
  return indices.reduce(
    (acc, i) => ({
      breakfasts: acc.breakfasts + pieces[i]!.meals.breakfasts,
      lunches: acc.lunches + pieces[i]!.meals.lunches,
      dinners: acc.dinners + pieces[i]!.meals.dinners,
    }),
    { breakfasts: 0, lunches: 0, dinners: 0 },
  );
}

export interface DayRate {
  /** The row that shows the day's foreign amount. */
  holder: number;
  rate: ForeignRate;
}

/** The country of the day's foreign amount and its rate (null when a needed rate is missing). */
export function dayRate(pieces: readonly Piece[], foreign: readonly number[], ctx: LawContext, fxDate: string): DayRate | null {
  const byCountry = new Map<string, number[]>();
  for (const i of foreign) {
    const c = pieces[i]!.leg.countryCode;
    byCountry.set(c, [...(byCountry.get(c) ?? []), i]);
  }
  const most = Math.max(...[...byCountry.values()].map((list) => msOf(pieces, list)));
  const candidates = [...byCountry.values()].filter((list) => msOf(pieces, list) === most);
  let best: { holder: number; rate: ForeignRate; value: Ratio } | null = null;
  let missing = false;
  for (const list of candidates) {
    const holder = longest(pieces, list)!;
    const piece = pieces[holder]!;
    const rate = ctx.foreign(piece.leg.countryCode, piece.day, piece.leg.stopIndex);
    if (rate === null) {
      missing = true;
      continue;
    }
    // Equal time: compare the rates in the base currency (at the law's exchange-rate date).
    const value = candidates.length === 1 ? ZERO : ctx.inBase(fromDecimal(rate.rate), rate.currency, fxDate, piece.leg.stopIndex);
    if (value === null) {
      missing = true;
      continue;
    }
    if (best === null || cmp(value, best.value) > 0) best = { holder, rate, value };
  }
  return missing || best === null ? null : { holder: best.holder, rate: best.rate };
}

/** A row that shows no amount (its time counted elsewhere, or nothing due). */
export function emptyRow(piece: Piece, currency: string, rule: string): RowDraft {
  return { piece, units: ZERO, rate: ZERO, currency, gross: ZERO, reduction: ZERO, rounding: 'halfUp', rule };
}
