// Croatia (Pravilnik o porezu na dohodak čl. 7; Odluka NN 16/2024): 24-hour blocks over the whole
// trip. Foreign per diems come from the foreign hours alone; the domestic ones are the whole-trip
// count less the foreign ones (leftover foreign hours top up the domestic count, never the
// reverse). Abroad, a stay over 12 h takes its country's rate; a shorter one is counted with the
// next country where more than 12 h are spent, or, on the way back, with the last such country;
// a trip abroad with no such stay takes its first foreign country's rate. Each block is paid at
// the rate in force on the day it starts. Each lunch or dinner cuts 30 % of a per diem: of its leg,
// else of its part of the trip (the time at home, or one country's time abroad), else of the trip.
import type { LawContext, RowDraft } from './context.js';
import { hrCount } from './bands.js';
import { poolItems } from './blocks.js';
import { LAW_ZONE } from './law.js';
import { isDomestic, pieceMs, type Piece } from './pieces.js';
import { add, cmp, fromDecimal, max, min, mul, percent, ratio, sub, sum, ONE, ZERO, type Ratio } from './ratio.js';
import { foreignRateOn } from './rate-table.js';
import { dateInZone, HOUR_MS } from './wall-clock.js';
import { domesticAmountsOn } from './domestic-amounts.js';

const LAW = 'HR';
const LONG_STAY_MS = 12 * HOUR_MS;
const DOMESTIC = -1;

/** One per diem (a whole or a half) with the rate of its day and the meal cut it took. */
interface Item {
  piece: number;
  units: Ratio;
  /** DOMESTIC, or the piece whose country's rate applies (meals of its time abroad cut it). */
  group: number;
  date: string;
  rate: Ratio;
  currency: string;
  cut: Ratio;
}

export function hrRows(pieces: readonly Piece[], ctx: LawContext): RowDraft[] {
  const rateFrom = rateSources(pieces);
  const items = [...foreignItems(pieces, rateFrom, ctx)];
  const foreignUnits = sum(items.map((it) => it.units));
  const total = pieces.reduce((acc, p) => acc + pieceMs(p), 0);
  items.push(...domesticItems(pieces, max(ZERO, sub(hrCount(total), foreignUnits)), ctx));
  const merged = mergeParts(items);
  cutMeals(pieces, merged, rateFrom);
  return pieces.map((piece, i) => row(pieces, i, merged, rateFrom, ctx));
}

/**
 * Two halves on one row are one per diem (a stay's half and the half its short stay brought, or the
 * domestic half and the top-up): merged, dated by the first, so a meal cuts 30 % of a whole one.
 */
function mergeParts(items: readonly Item[]): Item[] {
  const out: Item[] = [];
  for (const it of items) {
    const open = out.find(
      (o) => o.piece === it.piece && o.group === it.group && cmp(o.units, ONE) < 0 && cmp(add(o.units, it.units), ONE) <= 0,
    );
    if (open !== undefined && cmp(it.units, ONE) < 0) open.units = add(open.units, it.units);
    else out.push({ ...it });
  }
  return out;
}

function row(pieces: readonly Piece[], i: number, items: readonly Item[], rateFrom: readonly number[], ctx: LawContext): RowDraft {
  const piece = pieces[i]!;
  const own = items.filter((it) => it.piece === i);
  const domestic = isDomestic(piece, LAW);
  const units = sum(own.map((it) => it.units));
  const gross = sum(own.map((it) => mul(it.units, it.rate)));
  const reduction = min(gross, sum(own.map((it) => it.cut)));
  const shown = own[0] ?? items.find((it) => it.group === (domestic ? DOMESTIC : rateFrom[i]));
  const rates = [...new Set(own.map((it) => `${toText(it.rate)} ${it.currency} from ${it.date}`))];
  const rateNote = rates.length > 1 ? ` (${rates.join(', ')}: each block at the rate of its first day)` : '';
  let rule: string;
  if (domestic)
    rule =
      own.length > 0
        ? `HR domestic: whole-trip 24-hour count less the foreign per diems (leftover foreign hours top up)${rateNote}`
        : 'HR domestic: hours counted in the whole-trip total; no per diem falls on this leg';
  else if (rateFrom[i] !== i)
    rule = `HR foreign: stay of 12 h or less, counted with ${pieces[rateFrom[i]!]!.leg.countryCode} (next or last stay over 12 h)`;
  else rule = `HR foreign: 24-hour blocks over the foreign hours only, at the rate of this country${rateNote}`;
  const fallback =
    shown === undefined ? quietRate(pieces, domestic ? i : rateFrom[i]!, ctx) : { rate: shown.rate, currency: shown.currency };
  return { piece, units, rate: fallback.rate, currency: fallback.currency, gross, reduction, rounding: 'halfUp', rule };
}

const toText = (r: Ratio): string => (Number(r.n) / Number(r.d)).toFixed(2);

/** The rate a row without per diems shows, looked up without refusing (nothing is paid on it). */
function quietRate(pieces: readonly Piece[], i: number, ctx: LawContext): { rate: Ratio; currency: string } {
  const piece = pieces[i]!;
  if (isDomestic(piece, LAW)) {
    const a = domesticAmountsOn(LAW, piece.day);
    return { rate: a === null ? ZERO : fromDecimal(a.amounts[1]!), currency: 'EUR' };
  }
  const r = foreignRateOn(ctx.tables, LAW, piece.leg.countryCode, piece.day);
  return { rate: r === null ? ZERO : fromDecimal(r.rate), currency: r?.currency ?? 'EUR' };
}

const dayOf = (ms: number): string => dateInZone(ms, LAW_ZONE.HR);

/** Per diems over all foreign time (blocks end where they complete); each at its rate piece's country. */
function foreignItems(pieces: readonly Piece[], rateFrom: readonly number[], ctx: LawContext): Item[] {
  const pool = pieces.flatMap((p, i) => (isDomestic(p, LAW) ? [] : [i]));
  return poolItems(pieces, pool, hrCount).map((b) => {
    const target = rateFrom[b.piece]!;
    const source = pieces[target]!;
    const date = dayOf(b.startMs);
    const found = ctx.foreign(source.leg.countryCode, date, source.leg.stopIndex);
    const rate = found === null ? ZERO : fromDecimal(found.rate);
    return { piece: target, units: b.units, group: target, date, rate, currency: found?.currency ?? 'EUR', cut: ZERO };
  });
}

/** `count` domestic per diems over the time at home, chronologically; any rest on the last leg at home. */
function domesticItems(pieces: readonly Piece[], count: Ratio, ctx: LawContext): Item[] {
  const pool = pieces.flatMap((p, i) => (isDomestic(p, LAW) ? [i] : []));
  if (pool.length === 0 || cmp(count, ZERO) === 0) return [];
  const planned = [...poolItems(pieces, pool, hrCount, count)];
  let left = sub(count, sum(planned.map((b) => b.units)));
  // The top-up from leftover foreign hours: on the last leg at home, dated by its start.
  const last = pool[pool.length - 1]!;
  while (cmp(left, ZERO) > 0) {
    const units = min(ONE, left);
    planned.push({ piece: last, units, startMs: pieces[last]!.startMs });
    left = sub(left, units);
  }
  return planned.map((b) => {
    const date = dayOf(b.startMs);
    const amounts = ctx.domestic(date, pieces[b.piece]!.leg.stopIndex);
    const rate = amounts === null ? ZERO : fromDecimal(amounts.amounts[1]!);
    return { piece: b.piece, units: b.units, group: DOMESTIC, date, rate, currency: 'EUR', cut: ZERO };
  });
}

/**
 * 30 % of a per diem for each provided lunch or dinner (breakfast in the lodging price is no cut),
 * at most one lunch and one dinner a per diem: a 24-hour block holds one of each, so two lunches
 * belong to two per diems. Each kind is placed on its own (placeMeals); a per diem with both is
 * cut 60 %.
 */
function cutMeals(pieces: readonly Piece[], items: Item[], rateFrom: readonly number[]): void {
  // A part abroad is named by the first piece of the stay whose rate applies: every leg of a stay
  // in one country (and the short stays counted with it) shares its meals.
  const stayStart = stayStarts(pieces);
  const parts: MealParts = {
    ofPiece: (piece) => (isDomestic(pieces[piece]!, LAW) ? DOMESTIC : stayStart[rateFrom[piece]!]!),
    ofItem: (it) => (it.group === DOMESTIC ? DOMESTIC : stayStart[it.group]!),
  };
  const order = [...items].sort((a, b) => cmp(b.units, a.units));
  const lunches = placeMeals(
    pieces.map((p) => p.meals.lunches),
    order,
    parts,
  );
  const dinners = placeMeals(
    pieces.map((p) => p.meals.dinners),
    order,
    parts,
  );
  order.forEach((it, k) => {
    const meals = Number(lunches[k]) + Number(dinners[k]);
    if (meals > 0) it.cut = mul(ratio(meals), mul(percent(30), mul(it.units, it.rate)));
  });
}

interface MealParts {
  /** The part of the trip a leg's time belongs to: DOMESTIC, or the first piece of its stay abroad. */
  ofPiece(piece: number): number;
  ofItem(it: Item): number;
}

/**
 * One kind of meal (each leg's count of lunches, or of dinners) placed on the per diems in `order`
 * (whole ones first), one at most each; true where a per diem takes one. A meal falls on a per diem
 * of the leg the caller keyed it to: the meal was had in that time. What those cannot take, and the
 * meals of a leg that holds no per diem, fall on the other per diems of the same part of the trip
 * (home, or one stay abroad with the short stays whose rate it lends), then on any per diem of the
 * trip ([U], docs/per-diems.md: "each provided lunch or dinner cuts 30 %" names no part of the trip).
 * Meals beyond one a per diem cut nothing more.
 */
function placeMeals(counts: readonly number[], order: readonly Item[], parts: MealParts): boolean[] {
  const own = [...counts];
  const taken = order.map((it) => {
    if (parts.ofItem(it) !== parts.ofPiece(it.piece) || own[it.piece]! === 0) return false;
    own[it.piece]! -= 1;
    return true;
  });
  const pooled = new Map<number, number>();
  own.forEach((n, i) => pooled.set(parts.ofPiece(i), (pooled.get(parts.ofPiece(i)) ?? 0) + n));
  order.forEach((it, k) => {
    const left = pooled.get(parts.ofItem(it)) ?? 0;
    if (taken[k] || left === 0) return;
    pooled.set(parts.ofItem(it), left - 1);
    taken[k] = true;
  });
  let rest = [...pooled.values()].reduce((a, n) => a + n, 0);
  order.forEach((_, k) => {
    if (taken[k] || rest === 0) return;
    rest -= 1;
    taken[k] = true;
  });
  return taken;
}

/** For each foreign piece, the first piece of its stay (consecutive legs in one country); -1 at home. */
function stayStarts(pieces: readonly Piece[]): number[] {
  const out = pieces.map(() => -1);
  pieces.forEach((p, i) => {
    if (isDomestic(p, LAW)) return;
    const previous = pieces[i - 1];
    const continues = i > 0 && !isDomestic(previous!, LAW) && previous!.leg.countryCode === p.leg.countryCode;
    out[i] = continues ? out[i - 1]! : i;
  });
  return out;
}

/**
 * For each foreign piece, the piece whose country's rate applies: itself in a stay over 12 h;
 * for a shorter stay, the first piece of the next stay over 12 h within the same time abroad,
 * else the last piece of the previous such stay, else the first piece of the time abroad.
 */
function rateSources(pieces: readonly Piece[]): number[] {
  const rateFrom = pieces.map((_, i) => i);
  let i = 0;
  while (i < pieces.length) {
    if (isDomestic(pieces[i]!, LAW)) {
      i++;
      continue;
    }
    const stays: { from: number; to: number; ms: number }[] = [];
    while (i < pieces.length && !isDomestic(pieces[i]!, LAW)) {
      const country = pieces[i]!.leg.countryCode;
      const from = i;
      let ms = 0;
      while (i < pieces.length && pieces[i]!.leg.countryCode === country) ms += pieceMs(pieces[i++]!);
      stays.push({ from, to: i - 1, ms });
    }
    stays.forEach((stay, s) => {
      if (stay.ms > LONG_STAY_MS) return;
      const next = stays.slice(s + 1).find((x) => x.ms > LONG_STAY_MS);
      const previous = [...stays.slice(0, s)].reverse().find((x) => x.ms > LONG_STAY_MS);
      const target = next?.from ?? previous?.to ?? stays[0]!.from;
      for (let k = stay.from; k <= stay.to; k++) rateFrom[k] = target;
    });
  }
  return rateFrom;
}
