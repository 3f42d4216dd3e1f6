// The engine's answer on the wire: decimal strings as JSON numbers (exact for the 2- and 4-decimal
// values it produces).
import type { Static } from '@sinclair/typebox';
import type { PerDiemResult, PerDiemRow } from '../../../domain/per-diems/index.js';
import type { ComputedPerDiem } from './schemas.js';

/** A row as the response schema (ComputedPerDiem) describes it. */
type WireRow = Static<typeof ComputedPerDiem>;
/**
 * Row fields the engine keeps for the write path: the stop a row starts at, and its zone (stored with
 * an entry's row, which a full replacement sends back; the calculator's rows are not sent back).
 */
type InternalRowField = 'stopIndex' | 'timeZone';
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
type Holds<T extends true> = T;
/**
 * Checked by the compiler: the response schema names exactly the engine row's fields but the
 * internal ones, so a field added to PerDiemRow cannot drop out of the response unnoticed (the
 * serializer writes only the schema's fields); and presentComputedRow returns the schema's type, so
 * it must present every one of them with the schema's type.
 */
export type SchemaNamesEveryRowField = Holds<SameKeys<WireRow, Omit<PerDiemRow, InternalRowField>>>;

// Each field named once, in one object literal: the serializer (fast-json-stringify, from the
// response schema) writes the schema's fields in the schema's order, so the bytes are the same as
// with a spread of the row, without copying every field of every row first (session 8).
export function presentComputedRow(r: PerDiemRow): WireRow {
  return {
    countryCode: r.countryCode,
    departureTime: r.departureTime,
    arrivalTime: r.arrivalTime,
    departureTimeUtc: r.departureTimeUtc,
    arrivalTimeUtc: r.arrivalTimeUtc,
    hours: Number(r.hours),
    units: Number(r.units),
    rate: Number(r.rate),
    currencyCode: r.currencyCode,
    breakfastsProvided: r.breakfastsProvided,
    lunchesProvided: r.lunchesProvided,
    dinnersProvided: r.dinnersProvided,
    mealsProvided: r.mealsProvided,
    mealReduction: Number(r.mealReduction),
    amount: Number(r.amount),
    exchangeRate: r.exchangeRate === null ? null : Number(r.exchangeRate),
    exchangeRateDate: r.exchangeRateDate,
    exchangeRateSource: r.exchangeRateSource,
    amountInBaseCurrency: Number(r.amountInBaseCurrency),
    rule: r.rule,
  };
}

export function presentCalculation(result: PerDiemResult) {
  return {
    law: result.law,
    baseCurrency: result.baseCurrency,
    perDiems: result.perDiems.map(presentComputedRow),
    totals: {
      byCurrency: Object.fromEntries(Object.entries(result.totals.byCurrency).map(([c, v]) => [c, Number(v)])),
      inBaseCurrency: Number(result.totals.inBaseCurrency),
    },
    rateTables: result.rateTables,
    notices: result.notices,
  };
}
