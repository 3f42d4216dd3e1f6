// The engine's answer on the wire: decimal strings as JSON numbers (exact for the 2- and 4-decimal
// values it produces).
import type { PerDiemResult, PerDiemRow } from '../../../domain/per-diems/index.js';

/**
 * The row's fields on the wire: all of them but the engine's internal ones. The presenter's return
 * type makes the compiler hold it to the row, so a field added to PerDiemRow cannot drop out of the
 * response unnoticed: it must be presented here or named internal.
 */
type WireRow = Record<Exclude<keyof PerDiemRow, InternalRowField>, unknown>;
type InternalRowField = 'stopIndex';

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
  };
}
