// The statutory per-diem engine: an itinerary, the meals and the dates in; per-diem rows out, with
// the whole trip's redistribution applied. Pure: rate tables, exchange rates and time-zone data
// come in as data. Refusals: 400 VALIDATION_FAILED keyed by field for a bad itinerary,
// PER_DIEM_RATE_UNAVAILABLE for a destination or date without a statutory amount (never a guess),
// EXCHANGE_RATE_UNAVAILABLE for a row whose currency has no published rate.
import { DomainError, validationError } from '../errors.js';
import { isDate } from '../shared/dates.js';
import { convertExact, LawContext, type RowDraft } from './context.js';
import { czRows } from './cz.js';
import { hrRows } from './hr.js';
import { itineraryLegs, type Leg, type ZoneDirectory } from './itinerary.js';
import { isPerDiemLaw, LAW_CURRENCY, LAW_ZONE, type PerDiemLaw } from './law.js';
import { attachMeals } from './meals.js';
import type { PerDiemNotice, PerDiemRequest, PerDiemResult, PerDiemRow, RateBook } from './model.js';
import { dayPieces, hoursText, legPieces, type Piece } from './pieces.js';
import type { RateTables } from './rate-table.js';
import { cmp, round, sub, toFixed, toShortDecimal, ZERO, type Ratio } from './ratio.js';
import { siRows } from './si.js';
import { skRows } from './sk.js';
import { isoInstant, utcToWall, wallFieldsMs } from './wall-clock.js';

export interface EngineData {
  readonly tables: RateTables;
  readonly book: RateBook;
  readonly zonesOf: ZoneDirectory;
}

export function calculatePerDiems(request: PerDiemRequest, data: EngineData): PerDiemResult {
  const law = request.law;
  if (!isPerDiemLaw(law)) throw new RangeError(`no per-diem law for ${String(law)}`);
  const advance = request.advancePaymentDate ?? null;
  if (advance !== null && (typeof advance !== 'string' || !isDate(advance)))
    throw validationError({ advancePaymentDate: ['Must be a calendar date yyyy-MM-dd.'] });

  const legs = itineraryLegs(request.stops, data.zonesOf);
  const pieces = law === 'CZ' || law === 'SK' ? dayPieces(legs, LAW_ZONE[law]) : legPieces(legs);
  attachMeals(pieces, request.meals);

  const baseCurrency = LAW_CURRENCY[law];
  const ctx = new LawContext(law, baseCurrency, data.tables, data.book);
  const fxDate = exchangeRateDate(law, legs, advance);
  const drafts = rowsByLaw(law, pieces, ctx, fxDate(pieces[0]!));
  if (Object.keys(ctx.rateErrors).length > 0) {
    throw new DomainError(
      'PER_DIEM_RATE_UNAVAILABLE',
      'No statutory per-diem amount is known for some stops; the rate is never guessed.',
      ctx.rateErrors,
    );
  }
  const rows = drafts.map((d) => finish(d, ctx, fxDate(d.piece)));
  if (Object.keys(ctx.fxErrors).length > 0) {
    throw new DomainError(
      'EXCHANGE_RATE_UNAVAILABLE',
      'No exchange rate is published for some per-diem currencies on the date the law sets.',
      ctx.fxErrors,
    );
  }
  return {
    law,
    baseCurrency,
    perDiems: rows,
    totals: totals(rows),
    rateTables: { law, revision: data.tables.revisions[law] ?? null },
    notices: noticesOf(law, legs),
  };
}

const MAX_HR_TRIP_MS = 30 * 24 * 3_600_000;

/**
 * Croatian law knows a business trip of at most 30 days without a break; what is due past day 30
 * (per diems or a field allowance) it does not say, so the rows are computed and the trip flagged
 * for review (docs/per-diems.md).
 */
function noticesOf(law: PerDiemLaw, legs: readonly Leg[]): PerDiemNotice[] {
  // Days of the calendar on the first stop's clock (the trip's end read there too): a month across
  // the autumn clock change is 30 days, not 30 days and an hour, and a trip ending abroad is not
  // lengthened or shortened by the time-zone difference.
  const first = legs[0]!;
  const start = wallFieldsMs(first.startWall);
  const end = wallFieldsMs(utcToWall(legs[legs.length - 1]!.endMs, first.zone));
  const span = start !== null && end !== null ? end - start : legs[legs.length - 1]!.endMs - first.startMs;
  if (law !== 'HR' || span <= MAX_HR_TRIP_MS) return [];
  return [
    {
      code: 'TRIP_OVER_30_DAYS',
      detail:
        'A business trip under Croatian law lasts at most 30 days without a break; the per diems past day 30 are computed, but may not be tax-free. Review the trip.',
    },
  ];
}

function rowsByLaw(law: PerDiemLaw, pieces: Piece[], ctx: LawContext, tripFxDate: string): RowDraft[] {
  switch (law) {
    case 'HR':
      return hrRows(pieces, ctx);
    case 'SI':
      return siRows(pieces, ctx, tripFxDate);
    case 'CZ':
      return czRows(pieces, ctx, tripFxDate);
    case 'SK':
      return skRows(pieces, ctx, tripFxDate);
  }
}

/**
 * The date whose exchange rate converts a row: HR the day of the row's departure; SI the last day
 * of the trip; CZ the advance payment date, else the first day (§183(2), §184); SK the first of
 * the month the trip started (§36(6)).
 */
function exchangeRateDate(law: PerDiemLaw, legs: readonly Leg[], advance: string | null): (piece: Piece) => string {
  const trip = { first: legs[0]!.startWall.slice(0, 10), last: legs[legs.length - 1]!.endWall.slice(0, 10), advance };
  return (piece) => lawExchangeRateDate(law, trip, piece.startWall.slice(0, 10));
}

/** The law's exchange-rate date of a row departing on `rowDate` (see exchangeRateDate). */
export function lawExchangeRateDate(
  law: PerDiemLaw,
  trip: { first: string; last: string; advance: string | null },
  rowDate: string,
): string {
  switch (law) {
    case 'HR':
      return rowDate;
    case 'SI':
      return trip.last;
    case 'CZ':
      return trip.advance ?? trip.first;
    case 'SK':
      return `${trip.first.slice(0, 7)}-01`;
  }
}

function finish(d: RowDraft, ctx: LawContext, fxDate: string): PerDiemRow {
  const amount = round(sub(d.gross, d.reduction), 2, d.rounding);
  const shownGross = round(d.gross, 2);
  const piece = d.piece;
  let exchangeRate: string | null = null;
  let exchangeRateDate: string | null = null;
  let exchangeRateSource: string | null = null;
  let inBase: Ratio = amount;
  if (d.currency !== ctx.baseCurrency && cmp(amount, ZERO) !== 0) {
    const fx = ctx.fx(d.currency, fxDate, piece.leg.stopIndex);
    if (fx !== null && fx !== 'base') {
      exchangeRate = fx.rate;
      exchangeRateDate = fx.date;
      exchangeRateSource = fx.source;
      inBase = round(convertExact(amount, fx), 2);
    } else inBase = ZERO;
  }
  return {
    stopIndex: piece.leg.stopIndex,
    timeZone: piece.leg.zone,
    countryCode: piece.leg.countryCode,
    departureTime: piece.startWall,
    arrivalTime: piece.endWall,
    departureTimeUtc: isoInstant(piece.startMs),
    arrivalTimeUtc: isoInstant(piece.endMs),
    hours: hoursText(piece.endMs - piece.startMs),
    units: toShortDecimal(d.units, 4),
    rate: toFixed(d.rate, 2),
    currencyCode: d.currency,
    breakfastsProvided: piece.meals.breakfasts,
    lunchesProvided: piece.meals.lunches,
    dinnersProvided: piece.meals.dinners,
    mealsProvided: piece.meals.lunches + piece.meals.dinners,
    mealReduction: toFixed(sub(shownGross, amount), 2),
    amount: toFixed(amount, 2),
    exchangeRate,
    exchangeRateDate,
    exchangeRateSource,
    amountInBaseCurrency: toFixed(inBase, 2),
    rule: d.rule,
  };
}

function totals(rows: readonly PerDiemRow[]): PerDiemResult['totals'] {
  // Amounts are 2-decimal strings: summed as whole cents, exact (as doubles while every partial sum
  // is a safe integer, as bigints otherwise).
  const byCurrency = new Map<string, number>();
  let inBase = 0;
  let safe = true;
  for (const r of rows) {
    const amount = Number(r.amount.replace('.', ''));
    if (amount !== 0) {
      const sum = (byCurrency.get(r.currencyCode) ?? 0) + amount;
      byCurrency.set(r.currencyCode, sum);
      safe &&= Number.isSafeInteger(sum);
    }
    inBase += Number(r.amountInBaseCurrency.replace('.', ''));
    safe &&= Number.isSafeInteger(inBase);
  }
  if (!safe) return exactTotals(rows);
  return {
    byCurrency: Object.fromEntries([...byCurrency].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, v]) => [c, centsText(v)])),
    inBaseCurrency: centsText(inBase),
  };
}

/** Whole cents as a 2-decimal string (`-0.05`, `126.00`). */
function centsText(cents: number): string {
  const abs = Math.abs(cents);
  const rest = abs % 100;
  return `${cents < 0 ? '-' : ''}${(abs - rest) / 100}.${rest < 10 ? '0' : ''}${rest}`;
}

function exactTotals(rows: readonly PerDiemRow[]): PerDiemResult['totals'] {
  const cents = (text: string): bigint => BigInt(text.replace('.', ''));
  const byCurrency = new Map<string, bigint>();
  let inBase = 0n;
  for (const r of rows) {
    const amount = cents(r.amount);
    if (amount !== 0n) byCurrency.set(r.currencyCode, (byCurrency.get(r.currencyCode) ?? 0n) + amount);
    inBase += cents(r.amountInBaseCurrency);
  }
  const text = (c: bigint): string => toFixed({ n: c, d: 100n }, 2);
  return {
    byCurrency: Object.fromEntries([...byCurrency].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, v]) => [c, text(v)])),
    inBaseCurrency: text(inBase),
  };
}
