// Czechia (zákoník práce §163, §166, §170; yearly decrees): calendar days in Czech time. A trip
// only in Czechia pays domestic stravné by each day's hours (5 h at least), and a trip within
// exactly two calendar days is assessed as one when that pays more (§163(4)). On a trip abroad each
// day pays foreign stravné by the day's time abroad (a third from 1 h, two thirds over 12 h, full
// over 18 h; the third needs more than 5 h abroad when the day's Czech time earns domestic stravné)
// and domestic stravné for the Czech time, plus any time abroad that earned nothing. Each free
// meal cuts 70 %, 35 % or 25 % of the amount due, by its band.
import type { LawContext, RowDraft } from './context.js';
import { czForeignShare, dayDomesticBand } from './bands.js';
import { calendarDays, dayRate, domesticOf, emptyRow, foreignOf, longest, mealsOf, msOf, type Day } from './calendar-days.js';
import type { MealCount } from './model.js';
import { isDomestic, type Piece } from './pieces.js';
import { cmp, fromDecimal, min, mul, percent, ratio, sub, sum, ONE, ZERO, type Ratio } from './ratio.js';

const LAW = 'CZ';
const BAND_CUT = [70, 35, 25];
const hoursOf = (ms: number): string => `${Math.round(ms / 36_000) / 100} h`;

export function czRows(pieces: readonly Piece[], ctx: LawContext, fxDate: string): RowDraft[] {
  const rows: RowDraft[] = pieces.map((p) => emptyRow(p, 'CZK', 'CZ: no stravné on this row (time counted on the day’s other row)'));
  const days = calendarDays(pieces);
  const abroad = pieces.some((p) => !isDomestic(p, LAW));
  if (!abroad) {
    for (const day of days) domesticDay(pieces, day, day.indices, rows, ctx, 'CZ domestic §163: hours of the calendar day');
    mergeTwoDays(pieces, days, rows, ctx);
    return rows;
  }
  for (const day of days) {
    const foreign = foreignOf(pieces, day, LAW);
    const home = domesticOf(pieces, day, LAW);
    const foreignMs = msOf(pieces, foreign);
    const share = foreign.length === 0 ? ZERO : czForeignShare(foreignMs, msOf(pieces, home));
    if (cmp(share, ZERO) > 0) {
      const found = dayRate(pieces, foreign, ctx, fxDate);
      if (found !== null) {
        const base = fromDecimal(found.rate.rate);
        const gross = mul(base, share);
        const cut = cmp(share, ONE) === 0 ? 25 : cmp(share, ratio(1, 3)) === 0 ? 70 : 35;
        const piece = pieces[found.holder]!;
        rows[found.holder] = {
          piece,
          units: share,
          rate: base,
          currency: found.rate.currency,
          gross,
          reduction: mealCut(gross, cut, mealsOf(pieces, foreign)),
          rounding: 'halfUp',
          rule: `CZ foreign §170: ${hoursOf(foreignMs)} abroad on ${day.date}, ${share.n}/${share.d} of the rate of the country with the most time`,
        };
      }
      domesticDay(pieces, day, home, rows, ctx, 'CZ domestic part §166: Czech hours of the day on a trip abroad');
    } else {
      // Time abroad that earned no foreign stravné counts as domestic time.
      domesticDay(pieces, day, day.indices, rows, ctx, 'CZ domestic part §166: Czech hours plus time abroad without foreign stravné');
    }
  }
  return rows;
}

function domesticDay(
  pieces: readonly Piece[],
  day: Day,
  indices: readonly number[],
  rows: RowDraft[],
  ctx: LawContext,
  rule: string,
): void {
  const band = dayDomesticBand(msOf(pieces, indices));
  if (band < 0 || indices.length === 0) return;
  const home = indices.filter((i) => isDomestic(pieces[i]!, LAW));
  const holder = longest(pieces, home.length > 0 ? home : indices)!;
  const piece = pieces[holder]!;
  const amounts = ctx.domestic(day.date, piece.leg.stopIndex);
  if (amounts === null) return;
  const gross = fromDecimal(amounts.amounts[band]!);
  rows[holder] = {
    piece,
    units: ONE,
    rate: gross,
    currency: 'CZK',
    gross,
    reduction: mealCut(gross, BAND_CUT[band]!, mealsOf(pieces, indices)),
    rounding: 'halfUp',
    rule: `${rule} (${hoursOf(msOf(pieces, indices))} on ${day.date})`,
  };
}

/** Each free meal cuts `pct` % of the amount due, down to nothing. */
function mealCut(gross: Ratio, pct: number, meals: MealCount): Ratio {
  const n = meals.breakfasts + meals.lunches + meals.dinners;
  return min(gross, mul(mul(gross, percent(pct)), ratio(n)));
}

const net = (r: RowDraft): Ratio => sub(r.gross, r.reduction);

/** §163(4): a domestic trip within exactly two calendar days is assessed as one when that pays more. */
function mergeTwoDays(pieces: readonly Piece[], days: readonly Day[], rows: RowDraft[], ctx: LawContext): void {
  if (days.length !== 2) return;
  const all = pieces.map((_, i) => i);
  const band = dayDomesticBand(msOf(pieces, all));
  if (band < 0) return;
  const holder = longest(pieces, days[0]!.indices)!;
  const piece = pieces[holder]!;
  const amounts = ctx.domestic(days[0]!.date, piece.leg.stopIndex);
  if (amounts === null) return;
  const gross = fromDecimal(amounts.amounts[band]!);
  const merged: RowDraft = {
    piece,
    units: ONE,
    rate: gross,
    currency: 'CZK',
    gross,
    reduction: mealCut(gross, BAND_CUT[band]!, mealsOf(pieces, all)),
    rounding: 'halfUp',
    rule: `CZ domestic §163(4): trip within two calendar days assessed as one (${hoursOf(msOf(pieces, all))}), more favourable`,
  };
  const separate = sum(rows.map(net));
  if (cmp(net(merged), separate) <= 0) return;
  rows.forEach((r, i) => {
    rows[i] = emptyRow(r.piece, 'CZK', 'CZ domestic §163(4): assessed with the other day of the trip');
  });
  rows[holder] = merged;
}
