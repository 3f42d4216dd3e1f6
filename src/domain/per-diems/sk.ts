// Slovakia (zákon 283/2002 Z. z. §5 and §13): each calendar day in Slovak time on its own, never
// merged across midnight. Slovak time of a day pays domestic stravné from 5 h; time abroad pays
// the day's foreign share (up to 6 h a quarter, up to 12 h a half, over 12 h full) of the rate of
// the country with the most time. Meals cut 25 %, 40 % and 35 % of the over-18-hour amount
// (domestic) or of the base rate (abroad); the day's stravné is then rounded up to the cent.
import type { LawContext, RowDraft } from './context.js';
import { dayDomesticBand, skForeignShare } from './bands.js';
import { calendarDays, dayRate, domesticOf, emptyRow, foreignOf, longest, mealsOf, msOf } from './calendar-days.js';
import type { MealCount } from './model.js';
import type { Piece } from './pieces.js';
import { add, cmp, fromDecimal, min, mul, percent, ratio, ONE, ZERO, type Ratio } from './ratio.js';

const LAW = 'SK';
const hoursOf = (ms: number): string => `${Math.round(ms / 36_000) / 100} h`;

export function skRows(pieces: readonly Piece[], ctx: LawContext, fxDate: string): RowDraft[] {
  const rows: RowDraft[] = pieces.map((p) => emptyRow(p, 'EUR', 'SK: no stravné on this row (time counted on the day’s other row)'));
  for (const day of calendarDays(pieces)) {
    const home = domesticOf(pieces, day, LAW);
    const band = dayDomesticBand(msOf(pieces, home));
    if (band >= 0) {
      const holder = longest(pieces, home)!;
      const piece = pieces[holder]!;
      const amounts = ctx.domestic(day.date, piece.leg.stopIndex);
      if (amounts !== null) {
        const gross = fromDecimal(amounts.amounts[band]!);
        const cutBase = fromDecimal(amounts.amounts[2]!);
        rows[holder] = {
          piece,
          units: ONE,
          rate: gross,
          currency: 'EUR',
          gross,
          reduction: min(gross, mealCut(cutBase, mealsOf(pieces, home))),
          rounding: 'up',
          rule: `SK domestic §5: ${hoursOf(msOf(pieces, home))} in Slovakia on ${day.date}`,
        };
      }
    }
    const foreign = foreignOf(pieces, day, LAW);
    const foreignMs = msOf(pieces, foreign);
    const share = skForeignShare(foreignMs);
    if (foreign.length === 0 || cmp(share, ZERO) === 0) continue;
    const found = dayRate(pieces, foreign, ctx, fxDate);
    if (found === null) continue;
    const base = fromDecimal(found.rate.rate);
    const gross = mul(base, share);
    rows[found.holder] = {
      piece: pieces[found.holder]!,
      units: share,
      rate: base,
      currency: found.rate.currency,
      gross,
      reduction: min(gross, mealCut(base, mealsOf(pieces, foreign))),
      rounding: 'up',
      rule: `SK foreign §13: ${hoursOf(foreignMs)} abroad on ${day.date}, ${share.n}/${share.d} of the rate of the country with the most time`,
    };
  }
  return rows;
}

/** 25 % a breakfast, 40 % a lunch, 35 % a dinner, of `base`; not rounded (the day's amount is). */
function mealCut(base: Ratio, meals: MealCount): Ratio {
  return mul(
    base,
    add(add(mul(percent(25), ratio(meals.breakfasts)), mul(percent(40), ratio(meals.lunches))), mul(percent(35), ratio(meals.dinners))),
  );
}
