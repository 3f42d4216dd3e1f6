// Croatia (Pravilnik o porezu na dohodak čl. 7; Odluka NN 16/2024): 24-hour blocks over the whole
// trip. Foreign per diems come from the foreign hours alone; the domestic ones are the whole-trip
// count less the foreign ones (leftover foreign hours top up the domestic count, never the
// reverse). Abroad, a stay over 12 h takes its country's rate; a shorter one is counted with the
// next country where more than 12 h are spent, or, on the way back, with the last such country;
// a trip abroad with no such stay takes its first foreign country's rate.
import type { LawContext, RowDraft } from './context.js';
import { hrCount } from './bands.js';
import { isDomestic, pieceMs, type Piece } from './pieces.js';
import { add, cmp, fromDecimal, max, min, mul, percent, ratio, sub, ZERO, type Ratio } from './ratio.js';
import { HOUR_MS } from './wall-clock.js';

const LAW = 'HR';
const LONG_STAY_MS = 12 * HOUR_MS;

/** Per diem units of each piece; abroad, the index of the piece whose country's rate applies. */
interface Allocation {
  units: Ratio[];
  rateFrom: number[];
}

export function hrRows(pieces: readonly Piece[], ctx: LawContext): RowDraft[] {
  const { units, rateFrom } = allocate(pieces);
  return pieces.map((piece, i) => {
    const u = units[i]!;
    if (isDomestic(piece, LAW)) {
      const amounts = ctx.domestic(piece.day, piece.leg.stopIndex);
      const full = amounts === null ? ZERO : fromDecimal(amounts.amounts[1]);
      const rule =
        cmp(u, ZERO) > 0
          ? 'HR domestic: whole-trip 24-hour count less the foreign per diems (leftover foreign hours top up)'
          : 'HR domestic: hours counted in the whole-trip total; no per diem falls on this leg';
      return draft(piece, u, full, 'EUR', rule);
    }
    const source = pieces[rateFrom[i]!]!;
    const rate = ctx.foreign(source.leg.countryCode, source.day, source.leg.stopIndex);
    const value = rate === null ? ZERO : fromDecimal(rate.rate);
    const currency = rate?.currency ?? 'EUR';
    const rule =
      source === piece
        ? 'HR foreign: 24-hour blocks over the foreign hours only, at the rate of this country'
        : `HR foreign: stay of 12 h or less, counted with ${source.leg.countryCode} (next or last stay over 12 h)`;
    return draft(piece, u, value, currency, rule);
  });
}

function draft(piece: Piece, units: Ratio, rate: Ratio, currency: string, rule: string): RowDraft {
  const gross = mul(units, rate);
  return { piece, units, rate, currency, gross, reduction: mealCut(units, rate, piece), rounding: 'halfUp', rule };
}

/**
 * 30 % of a per diem for each provided lunch or dinner (breakfast in the lodging price is no cut),
 * at most two a per diem; meals fall on the row's full per diems first, then on its half one.
 */
function mealCut(units: Ratio, rate: Ratio, piece: Piece): Ratio {
  const meals = piece.meals.lunches + piece.meals.dinners;
  if (meals === 0) return ZERO;
  const fulls = Number(units.n / units.d);
  const half = cmp(units, ratio(fulls)) > 0 ? 1 : 0;
  const onFulls = Math.min(meals, 2 * fulls);
  const onHalf = Math.min(meals - onFulls, 2 * half);
  const cut = add(mul(ratio(onFulls), mul(percent(30), rate)), mul(ratio(onHalf), mul(percent(30), mul(rate, ratio(1, 2)))));
  return min(cut, mul(units, rate));
}

function allocate(pieces: readonly Piece[]): Allocation {
  const units = pieces.map(() => ZERO);
  const rateFrom = pieces.map((_, i) => i);
  const total = pieces.reduce((acc, p) => acc + pieceMs(p), 0);

  // Abroad: chronological blocks over the foreign hours; a block belongs to the piece it ends in.
  let foreignMs = 0;
  pieces.forEach((p, i) => {
    if (isDomestic(p, LAW)) return;
    const before = hrCount(foreignMs);
    foreignMs += pieceMs(p);
    units[i] = sub(hrCount(foreignMs), before);
  });
  for (const stay of shortStays(pieces)) {
    // A short stay's units move to the piece whose rate it takes (the nearest piece of that stay).
    for (const i of stay.members) {
      rateFrom[i] = stay.target;
      if (i !== stay.target) {
        units[stay.target] = add(units[stay.target]!, units[i]!);
        units[i] = ZERO;
      }
    }
  }

  // At home: the whole-trip count less the foreign one, chronologically, any rest on the last leg.
  const domestic = max(ZERO, sub(hrCount(total), hrCount(foreignMs)));
  let left = domestic;
  let domesticMs = 0;
  let last = -1;
  pieces.forEach((p, i) => {
    if (!isDomestic(p, LAW)) return;
    const before = hrCount(domesticMs);
    domesticMs += pieceMs(p);
    const u = min(left, sub(hrCount(domesticMs), before));
    units[i] = u;
    left = sub(left, u);
    last = i;
  });
  if (last >= 0 && cmp(left, ZERO) > 0) units[last] = add(units[last]!, left);
  return { units, rateFrom };
}

interface ShortStay {
  members: number[];
  target: number;
}

/**
 * Stays (runs of pieces in one foreign country) of 12 h or less, each with the piece whose rate it
 * takes: the first piece of the next stay over 12 h within the same time abroad, else the last
 * piece of the previous such stay, else the first piece of the time abroad.
 */
function shortStays(pieces: readonly Piece[]): ShortStay[] {
  const result: ShortStay[] = [];
  let i = 0;
  while (i < pieces.length) {
    if (isDomestic(pieces[i]!, LAW)) {
      i++;
      continue;
    }
    // One stretch abroad: consecutive foreign pieces.
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
      const members: number[] = [];
      for (let k = stay.from; k <= stay.to; k++) members.push(k);
      result.push({ members, target });
    });
  }
  return result;
}
