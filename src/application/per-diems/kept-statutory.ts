// A per diem sent back as it was read keeps the figures the engine stored for it. A row of
// from-itinerary carries the whole trip's redistribution (short stays counted with the next long
// one, a top-up on the last leg at home); computed again on its own, as a one-leg itinerary, it
// would pay another amount. An ERP that reads an entry and PUTs it back to fix its purpose must not
// move the money, and a write that changes nothing records no event (docs/domain.md).
//
// "As it was read": the same row id, country, instants, meals, override, manual rate and zone, on
// a Czech entry whose advance payment date (its per diems' exchange-rate date) is unchanged. A full
// replacement keeps the stored figures only when every stored row comes back so (keptInReplacement);
// anything else is a change, and the rows are computed again as before (docs/per-diems.md).
import { utcToWall, type PerDiemLaw } from '../../domain/per-diems/index.js';
import type { PerDiem, PerDiemConversion, PerDiemFields } from '../../domain/travel-entries/index.js';
import { resolveMealCounts, type MealCounts } from '../../domain/travel-entries/per-diem-meals.js';
import { Fields } from '../../domain/travel-entries/validate-common.js';
import { FieldErrorCollector } from '../../domain/shared/field-errors.js';
import { sameJson } from '../../domain/shared/text.js';
import { Dec } from '../../money/decimal.js';

/** The stored rows a write may keep, and the entry's per-diem exchange-rate date they were computed at. */
export interface StoredPerDiems {
  rows: readonly PerDiem[];
  advancePaymentDate: string | null;
}

const absent = (v: unknown): boolean => v === null || v === undefined;

/** The meal counts as the write model resolves them (per-diem-meals.ts); null for anything it refuses. */
function mealCounts(p: PerDiemFields): MealCounts | null {
  const errors = new FieldErrorCollector();
  const counts = resolveMealCounts(p, new Fields(errors, ''));
  return errors.isEmpty ? counts : null;
}

const sameInstant = (a: unknown, b: string): boolean =>
  typeof a === 'string' && Date.parse(a) === Date.parse(b) && !Number.isNaN(Date.parse(b));

function sameDecimal(a: string | null | undefined, b: string | null): boolean {
  if (absent(a) || absent(b)) return absent(a) && absent(b);
  try {
    return new Dec(a!).equals(b!);
  } catch {
    return false;
  }
}

/** Whether `p` sends `row` back as it was read (its own inputs; for a Czech entry also the advance date). */
function unchanged(law: PerDiemLaw, p: PerDiemFields, row: PerDiem, sameAdvance: boolean): boolean {
  // Only Czech law dates its exchange rate by the advance payment (engine.ts, exchangeRateDate).
  if (law === 'CZ' && !sameAdvance) return false;
  if (p.countryCode !== row.countryCode || !sameInstant(p.departureTime, row.departureTime) || !sameInstant(p.arrivalTime, row.arrivalTime))
    return false;
  const meals = mealCounts(p);
  if (
    meals === null ||
    meals.breakfastsProvided !== row.breakfastsProvided ||
    meals.lunchesProvided !== row.lunchesProvided ||
    meals.dinnersProvided !== row.dinnersProvided
  )
    return false;
  if (!sameJson(p.mealsProvidedAllocation ?? null, row.mealsProvidedAllocation ?? null)) return false;
  if (!sameDecimal(p.overrideAmount, row.overrideAmount) || !sameDecimal(p.manualExchangeRate, row.manualExchangeRate)) return false;
  // A zone named now must be the row's (a zone left out keeps it). Since session 23 the figures name
  // the zone they were computed in, which a client reads and sends back. Older figures are judged by
  // the departure's wall-clock time: an itinerary row's arrival is the next stop's, in its own zone.
  const figures = row.statutory;
  if (!absent(p.timeZone) && figures) {
    if (!absent(figures.timeZone)) return p.timeZone === figures.timeZone;
    try {
      if (utcToWall(Date.parse(row.departureTime), p.timeZone!) !== figures.departureTimeLocal) return false;
    } catch {
      return false; // an unknown zone: the computation names it
    }
  }
  return true;
}

/** The stored figures of the row `p` names, when `p` sends it back unchanged; undefined otherwise. */
export function keptStatutory(
  law: PerDiemLaw,
  p: PerDiemFields,
  id: string | null | undefined,
  stored: StoredPerDiems | undefined,
  advancePaymentDate: string | null,
): PerDiemConversion | undefined {
  const row = id ? stored?.rows.find((r) => r.id === id) : undefined;
  if (!row?.statutory || !unchanged(law, p, row, stored!.advancePaymentDate === advancePaymentDate)) return undefined;
  return { exchangeRateSource: row.exchangeRateSource, statutory: { ...row.statutory, currencyCode: row.currencyCode } };
}

/**
 * The stored rows a full replacement may keep: all of them or none. The figures of a row of
 * from-itinerary depend on the trip's other rows (a short stay takes a long stay's rate, the
 * domestic top-up goes to the last leg at home, a meal keyed to a leg without a per diem cuts
 * another), so they stay right only while every stored row is sent back unchanged. Rows added
 * beside them are computed on their own and change nothing of theirs.
 */
export function keptInReplacement(
  law: PerDiemLaw,
  sent: readonly PerDiemFields[],
  stored: StoredPerDiems | undefined,
  advancePaymentDate: string | null,
): StoredPerDiems | undefined {
  if (stored === undefined) return undefined;
  const byId = new Map(sent.flatMap((p) => (p.id ? [[p.id, p] as const] : [])));
  const sameAdvance = stored.advancePaymentDate === advancePaymentDate;
  const all = stored.rows.every((row) => {
    const p = byId.get(row.id);
    return p !== undefined && unchanged(law, p, row, sameAdvance);
  });
  return all ? stored : undefined;
}
