// The engine's answer on the wire: decimal strings as JSON numbers (exact for the 2- and 4-decimal
// values it produces).
import type { PerDiemResult, PerDiemRow } from '../../../domain/per-diems/index.js';

export function presentComputedRow(r: PerDiemRow) {
  const { stopIndex: _stopIndex, ...row } = r;
  return {
    ...row,
    hours: Number(r.hours),
    units: Number(r.units),
    rate: Number(r.rate),
    mealReduction: Number(r.mealReduction),
    amount: Number(r.amount),
    exchangeRate: r.exchangeRate === null ? null : Number(r.exchangeRate),
    amountInBaseCurrency: Number(r.amountInBaseCurrency),
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
