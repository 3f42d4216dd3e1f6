// Slovenia (Uredba o davčni obravnavi povračil stroškov …, domestic; Uredba o povračilu stroškov za
// službena potovanja v tujino, foreign): 24-hour blocks. Each country's time (all of the time in
// Slovenia; each stay abroad) gives whole per diems plus one for the remainder's band, and the
// number of per diems of the whole trip caps them: the lowest partial ones, latest first, then
// the latest whole ones are dropped until the count fits.
import type { LawContext, RowDraft } from './context.js';
import { siDomesticBand, siForeignBand, siTripCap } from './bands.js';
import { isDomestic, pieceMs, type Piece } from './pieces.js';
import { add, cmp, div, fromDecimal, mul, percent, ratio, sum, ZERO, ONE, type Ratio } from './ratio.js';
import { DAY_MS } from './wall-clock.js';

const LAW = 'SI';

/** One per diem: a whole day or a remainder band, with the cut rule of its band. */
interface Item {
  piece: number;
  /** Amount before meal cuts. */
  amount: Ratio;
  /** Share of the country's whole-day amount (orders the partial ones for the cap). */
  share: Ratio;
  whole: boolean;
  cut: CutRule;
}

/** Percent cuts for a breakfast, a lunch and a dinner; `allFood` provided meals pay 20 % only. */
interface CutRule {
  breakfast: number;
  lunch: number;
  dinner: number;
  allFood: number;
}

const CUT_FULL: CutRule = { breakfast: 10, lunch: 35, dinner: 35, allFood: 3 };
const CUT_75: CutRule = { breakfast: 15, lunch: 40, dinner: 40, allFood: 2 };
const CUT_25: CutRule = { breakfast: 80, lunch: 80, dinner: 80, allFood: 1 };
// Domestic >6–8 h: breakfast in the lodging bill cuts nothing; a lunch or dinner leaves 20 %.
const CUT_DOMESTIC_SHORT: CutRule = { breakfast: 0, lunch: 80, dinner: 80, allFood: 99 };

export function siRows(pieces: readonly Piece[], ctx: LawContext): RowDraft[] {
  const total = pieces.reduce((acc, p) => acc + pieceMs(p), 0);
  const items = capped(
    [...domesticItems(pieces, ctx), ...stays(pieces).flatMap((stay) => foreignItems(pieces, stay, ctx))],
    siTripCap(total),
  );
  return pieces.map((piece, i) => {
    const own = items.filter((it) => it.piece === i).sort((a, b) => Number(b.whole) - Number(a.whole));
    const domestic = isDomestic(piece, LAW);
    const rate = domestic ? domesticFull(piece, ctx) : foreignRate(pieces, i, ctx);
    const units = domestic ? ratio(own.length) : sum(own.map((it) => it.share));
    const gross = sum(own.map((it) => it.amount));
    const rule = describe(domestic, own, items.length, siTripCap(total));
    return { piece, units, rate: rate.value, currency: rate.currency, gross, reduction: mealCuts(own, piece), rounding: 'halfUp', rule };
  });
}

function describe(domestic: boolean, own: Item[], kept: number, cap: number): string {
  const where = domestic ? 'SI domestic: 24-hour blocks over all time in Slovenia' : 'SI foreign: 24-hour blocks over this stay';
  const bands =
    own.length === 0 ? 'no per diem on this leg' : own.map((it) => (it.whole ? '1' : `band ${it.share.n}/${it.share.d}`)).join(' + ');
  return `${where}; ${bands}; trip cap ${kept} of ${cap}`;
}

function domesticFull(piece: Piece, ctx: LawContext): { value: Ratio; currency: string } {
  const a = ctx.domestic(piece.day, piece.leg.stopIndex);
  return { value: a === null ? ZERO : fromDecimal(a.amounts[2]!), currency: 'EUR' };
}

function foreignRate(pieces: readonly Piece[], i: number, ctx: LawContext): { value: Ratio; currency: string } {
  const piece = pieces[i]!;
  const r = ctx.foreign(piece.leg.countryCode, piece.day, piece.leg.stopIndex);
  return { value: r === null ? ZERO : fromDecimal(r.rate), currency: r?.currency ?? 'EUR' };
}

/** Whole days fall on the piece they end in; the remainder's per diem on the pool's last piece. */
function spread(pieces: readonly Piece[], members: readonly number[]): { whole: number[]; rest: number; last: number } {
  let ms = 0;
  const whole: number[] = [];
  for (const i of members) {
    const before = Math.floor(ms / DAY_MS);
    ms += pieceMs(pieces[i]!);
    for (let k = before; k < Math.floor(ms / DAY_MS); k++) whole.push(i);
  }
  return { whole, rest: ms % DAY_MS, last: members[members.length - 1]! };
}

function domesticItems(pieces: readonly Piece[], ctx: LawContext): Item[] {
  const members = pieces.flatMap((p, i) => (isDomestic(p, LAW) ? [i] : []));
  if (members.length === 0) return [];
  const { whole, rest, last } = spread(pieces, members);
  const a = ctx.domestic(pieces[members[0]!]!.day, pieces[members[0]!]!.leg.stopIndex);
  if (a === null) return [];
  const amounts = a.amounts.map(fromDecimal);
  const full = amounts[2]!;
  const items: Item[] = whole.map((piece) => ({ piece, amount: full, share: ONE, whole: true, cut: CUT_FULL }));
  const band = siDomesticBand(rest);
  if (band >= 0) {
    const cut = band === 2 ? CUT_FULL : band === 1 ? CUT_75 : CUT_DOMESTIC_SHORT;
    items.push({ piece: last, amount: amounts[band]!, share: div(amounts[band]!, full), whole: false, cut });
  }
  return items;
}

function stays(pieces: readonly Piece[]): number[][] {
  const result: number[][] = [];
  pieces.forEach((p, i) => {
    if (isDomestic(p, LAW)) return;
    const current = result[result.length - 1];
    const previous = current === undefined ? undefined : pieces[current[current.length - 1]!]!;
    if (
      current !== undefined &&
      previous !== undefined &&
      current[current.length - 1] === i - 1 &&
      previous.leg.countryCode === p.leg.countryCode
    )
      current.push(i);
    else result.push([i]);
  });
  return result;
}

function foreignItems(pieces: readonly Piece[], members: readonly number[], ctx: LawContext): Item[] {
  const { whole, rest, last } = spread(pieces, members);
  const band = siForeignBand(rest);
  if (whole.length === 0 && cmp(band, ZERO) === 0) return [];
  const first = pieces[members[0]!]!;
  const r = ctx.foreign(first.leg.countryCode, first.day, first.leg.stopIndex);
  const rate = r === null ? ZERO : fromDecimal(r.rate);
  const items: Item[] = whole.map((piece) => ({ piece, amount: rate, share: ONE, whole: true, cut: CUT_FULL }));
  if (cmp(band, ZERO) > 0) {
    const cut = cmp(band, ONE) === 0 ? CUT_FULL : cmp(band, ratio(3, 4)) === 0 ? CUT_75 : CUT_25;
    items.push({ piece: last, amount: mul(rate, band), share: band, whole: false, cut });
  }
  return items;
}

/** Drops per diems over the trip's count: partial ones by share, latest first; then whole ones, latest first. */
function capped(items: Item[], cap: number): Item[] {
  if (items.length <= cap) return items;
  const order = items
    .map((it, index) => ({ it, index }))
    .sort((a, b) => {
      if (a.it.whole !== b.it.whole) return a.it.whole ? 1 : -1;
      if (!a.it.whole) {
        const byShare = cmp(a.it.share, b.it.share);
        if (byShare !== 0) return byShare;
      }
      return b.it.piece - a.it.piece || b.index - a.index;
    });
  const drop = new Set(order.slice(0, items.length - cap).map((x) => x.it));
  return items.filter((it) => !drop.has(it));
}

/** Meals fall one of each kind a per diem, whole ones first; all food provided leaves 20 %. */
function mealCuts(own: readonly Item[], piece: Piece): Ratio {
  let { breakfasts, lunches, dinners } = piece.meals;
  let total = ZERO;
  for (const it of own) {
    const b = breakfasts > 0 ? 1 : 0;
    const l = lunches > 0 ? 1 : 0;
    const d = dinners > 0 ? 1 : 0;
    breakfasts -= b;
    lunches -= l;
    dinners -= d;
    const provided = b + l + d;
    if (provided === 0) continue;
    const pct = provided >= it.cut.allFood ? 80 : Math.min(80, b * it.cut.breakfast + l * it.cut.lunch + d * it.cut.dinner);
    total = add(total, mul(it.amount, percent(pct)));
  }
  return total;
}
