// Slovenia (Uredba o davčni obravnavi povračil stroškov …, domestic; Uredba o povračilu stroškov za
// službena potovanja v tujino, foreign): 24-hour blocks per country. Each country's time (all of
// the time in Slovenia; all of the time in each foreign country) gives whole per diems plus one for
// the remainder's band, and the number of per diems of the whole trip caps them: the lowest partial
// ones (by amount), latest first, then the latest whole ones are dropped until the count fits.
// Meals of a country's time cut that country's per diems, one of each kind a per diem.
import type { LawContext, RowDraft } from './context.js';
import { siDomesticBand, siForeignBand, siTripCap } from './bands.js';
import { instantAt } from './blocks.js';
import { LAW_ZONE } from './law.js';
import { isDomestic, pieceMs, type Piece } from './pieces.js';
import type { MealCount } from './model.js';
import { cmp, div, fromDecimal, mul, percent, ratio, sum, ZERO, ONE, type Ratio } from './ratio.js';
import { dateInZone, DAY_MS } from './wall-clock.js';

const LAW = 'SI';

/** One per diem: a whole day or a remainder band, with its amount and the cut rule of its band. */
interface Item {
  piece: number;
  /** The pool (country) whose meals cut it. */
  pool: string;
  startMs: number;
  /** Amount before meal cuts, in `currency`. */
  amount: Ratio;
  currency: string;
  /** Share of the country's whole-day amount. */
  share: Ratio;
  whole: boolean;
  rule: CutRule;
  cut: Ratio;
}

/** Percent cuts for a breakfast, a lunch and a dinner; `allFood` provided meals leave 20 %. */
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

const dayOf = (ms: number): string => dateInZone(ms, LAW_ZONE.SI);

export function siRows(pieces: readonly Piece[], ctx: LawContext, fxDate: string): RowDraft[] {
  const total = pieces.reduce((acc, p) => acc + pieceMs(p), 0);
  const pools = new Map<string, number[]>();
  pieces.forEach((p, i) => pools.set(p.leg.countryCode, [...(pools.get(p.leg.countryCode) ?? []), i]));
  const all = [...pools].flatMap(([country, pool]) =>
    country === LAW ? domesticItems(pieces, pool, ctx) : foreignItems(pieces, pool, ctx),
  );
  const cap = siTripCap(total);
  const items = capped(pieces, all, cap, ctx, fxDate);
  for (const [country, pool] of pools)
    cutMeals(
      pieces,
      pool,
      items.filter((it) => it.pool === country),
    );
  return pieces.map((piece, i) => {
    const own = items.filter((it) => it.piece === i);
    const domestic = isDomestic(piece, LAW);
    const rate = domestic ? domesticFull(piece, ctx) : foreignRate(piece, own, ctx);
    const units = domestic ? ratio(own.length) : sum(own.map((it) => it.share));
    const gross = sum(own.map((it) => it.amount));
    const reduction = sum(own.map((it) => it.cut));
    return {
      piece,
      units,
      rate: rate.value,
      currency: rate.currency,
      gross,
      reduction,
      rounding: 'halfUp',
      rule: describe(domestic, own, items.length, all.length, cap),
    };
  });
}

function describe(domestic: boolean, own: Item[], kept: number, due: number, cap: number): string {
  const where = domestic
    ? 'SI domestic: 24-hour blocks over all time in Slovenia'
    : 'SI foreign: 24-hour blocks over the time in this country';
  const bands =
    own.length === 0 ? 'no per diem on this leg' : own.map((it) => (it.whole ? '1' : `band ${it.share.n}/${it.share.d}`)).join(' + ');
  const capNote = due > cap ? `; trip cap ${cap}: ${due - kept} dropped` : '';
  return `${where}; ${bands}${capNote}`;
}

function domesticFull(piece: Piece, ctx: LawContext): { value: Ratio; currency: string } {
  const a = ctx.domestic(piece.day, piece.leg.stopIndex);
  return { value: a === null ? ZERO : fromDecimal(a.amounts[2]!), currency: 'EUR' };
}

function foreignRate(piece: Piece, own: readonly Item[], ctx: LawContext): { value: Ratio; currency: string } {
  const first = own[0];
  if (first !== undefined) return { value: div(first.amount, first.share), currency: first.currency };
  const r = ctx.foreign(piece.leg.countryCode, piece.day, piece.leg.stopIndex);
  return { value: r === null ? ZERO : fromDecimal(r.rate), currency: r?.currency ?? 'EUR' };
}

/** Whole days fall on the piece they complete in; the remainder's per diem on the pool's last piece. */
function spread(
  pieces: readonly Piece[],
  pool: readonly number[],
): { whole: { piece: number; startMs: number }[]; rest: number; last: number; restStart: number } {
  let ms = 0;
  const whole: { piece: number; startMs: number }[] = [];
  for (const i of pool) {
    const before = Math.floor(ms / DAY_MS);
    ms += pieceMs(pieces[i]!);
    for (let k = before; k < Math.floor(ms / DAY_MS); k++) whole.push({ piece: i, startMs: instantAt(pieces, pool, k * DAY_MS) });
  }
  return { whole, rest: ms % DAY_MS, last: pool[pool.length - 1]!, restStart: instantAt(pieces, pool, whole.length * DAY_MS) };
}

function domesticItems(pieces: readonly Piece[], pool: readonly number[], ctx: LawContext): Item[] {
  const { whole, rest, last, restStart } = spread(pieces, pool);
  const items: Item[] = [];
  for (const b of whole) {
    const a = ctx.domestic(dayOf(b.startMs), pieces[b.piece]!.leg.stopIndex);
    if (a === null) continue;
    const full = fromDecimal(a.amounts[2]!);
    items.push({
      piece: b.piece,
      pool: LAW,
      startMs: b.startMs,
      amount: full,
      currency: 'EUR',
      share: ONE,
      whole: true,
      rule: CUT_FULL,
      cut: ZERO,
    });
  }
  const band = siDomesticBand(rest);
  if (band >= 0) {
    const a = ctx.domestic(dayOf(restStart), pieces[last]!.leg.stopIndex);
    if (a !== null) {
      const amount = fromDecimal(a.amounts[band]!);
      const rule = band === 2 ? CUT_FULL : band === 1 ? CUT_75 : CUT_DOMESTIC_SHORT;
      const share = div(amount, fromDecimal(a.amounts[2]!));
      items.push({ piece: last, pool: LAW, startMs: restStart, amount, currency: 'EUR', share, whole: false, rule, cut: ZERO });
    }
  }
  return items;
}

function foreignItems(pieces: readonly Piece[], pool: readonly number[], ctx: LawContext): Item[] {
  const { whole, rest, last, restStart } = spread(pieces, pool);
  const band = siForeignBand(rest);
  const country = pieces[pool[0]!]!.leg.countryCode;
  const rateOn = (startMs: number, piece: number) => ctx.foreign(country, dayOf(startMs), pieces[piece]!.leg.stopIndex);
  const items: Item[] = [];
  for (const b of whole) {
    const r = rateOn(b.startMs, b.piece);
    if (r === null) continue;
    items.push({
      piece: b.piece,
      pool: country,
      startMs: b.startMs,
      amount: fromDecimal(r.rate),
      currency: r.currency,
      share: ONE,
      whole: true,
      rule: CUT_FULL,
      cut: ZERO,
    });
  }
  if (cmp(band, ZERO) > 0) {
    const r = rateOn(restStart, last);
    if (r !== null) {
      const rule = cmp(band, ONE) === 0 ? CUT_FULL : cmp(band, ratio(3, 4)) === 0 ? CUT_75 : CUT_25;
      items.push({
        piece: last,
        pool: country,
        startMs: restStart,
        amount: mul(fromDecimal(r.rate), band),
        currency: r.currency,
        share: band,
        whole: false,
        rule,
        cut: ZERO,
      });
    }
  }
  return items;
}

/**
 * Drops per diems over the trip's count: partial ones first, the lowest amount (in the base
 * currency at the law's exchange-rate date) first and the latest among equals; then whole ones,
 * the latest first.
 */
function capped(pieces: readonly Piece[], items: Item[], cap: number, ctx: LawContext, fxDate: string): Item[] {
  if (items.length <= cap) return items;
  // Each partial's value in the base currency, converted once (not per comparison).
  const values = new Map(
    items
      .filter((it) => !it.whole)
      .map((it) => [it, ctx.inBase(it.amount, it.currency, fxDate, pieces[it.piece]!.leg.stopIndex) ?? it.amount]),
  );
  const value = (it: Item): Ratio => values.get(it)!;
  const order = [...items].sort((a, b) => {
    if (a.whole !== b.whole) return a.whole ? 1 : -1;
    if (!a.whole) {
      const byValue = cmp(value(a), value(b));
      if (byValue !== 0) return byValue;
    }
    return b.startMs - a.startMs;
  });
  const drop = new Set(order.slice(0, items.length - cap));
  return items.filter((it) => !drop.has(it));
}

const MEAL_KINDS = ['breakfasts', 'lunches', 'dinners'] as const;

/**
 * One meal of each kind a per diem; all food provided leaves 20 %. A meal falls on a per diem of the
 * leg the caller keyed it to, whole ones first: the meal was had in that time. What those cannot
 * take, and the meals of a leg that holds no per diem, fall on the pool's other per diems, whole
 * ones first, earliest first.
 */
function cutMeals(pieces: readonly Piece[], pool: readonly number[], items: readonly Item[]): void {
  const own = new Map(pool.map((i) => [i, { ...pieces[i]!.meals }]));
  const order = [...items].sort((a, b) => Number(b.whole) - Number(a.whole) || a.startMs - b.startMs);
  const got = order.map((it) => {
    const meals = own.get(it.piece);
    const had: MealCount = { breakfasts: 0, lunches: 0, dinners: 0 };
    for (const kind of MEAL_KINDS)
      if (meals !== undefined && meals[kind] > 0) {
        meals[kind]--;
        had[kind] = 1;
      }
    return had;
  });
  const left: MealCount = { breakfasts: 0, lunches: 0, dinners: 0 };
  for (const meals of own.values()) for (const kind of MEAL_KINDS) left[kind] += meals[kind];
  order.forEach((it, k) => {
    const had = got[k]!;
    for (const kind of MEAL_KINDS)
      if (had[kind] === 0 && left[kind] > 0) {
        left[kind]--;
        had[kind] = 1;
      }
    const provided = had.breakfasts + had.lunches + had.dinners;
    if (provided === 0) return;
    const pct =
      provided >= it.rule.allFood
        ? 80
        : Math.min(80, had.breakfasts * it.rule.breakfast + had.lunches * it.rule.lunch + had.dinners * it.rule.dinner);
    it.cut = mul(it.amount, percent(pct));
  });
}
