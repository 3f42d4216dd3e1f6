// Per-row meals as the caller sends them: `{ countryCode, departureTime, …Provided }`, keyed by a
// row the engine answers (the calculator's preview gives the keys). A key that names no row, a key
// given twice or a count that is not a whole number from 0 to 1000 is a 400 keyed by field.
import { FieldErrorCollector } from '../shared/field-errors.js';
import type { MealCount, RowMeals } from './model.js';
import { type Piece, rowKey } from './pieces.js';
import { canonicalWall } from './wall-clock.js';

const MAX_MEALS = 1000;

function count(value: unknown, path: string, errors: FieldErrorCollector): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_MEALS) {
    errors.add(path, `Must be a whole number from 0 to ${MAX_MEALS}.`);
    return 0;
  }
  return value;
}

/** Attaches the meals to their pieces (mutates `meals` of the pieces it names). */
export function attachMeals(pieces: readonly Piece[], meals: readonly RowMeals[] | null | undefined): void {
  if (meals === null || meals === undefined) return;
  const errors = new FieldErrorCollector();
  const byKey = new Map(pieces.map((p) => [rowKey(p.leg.countryCode, p.startWall), p]));
  const seen = new Set<string>();
  meals.forEach((m, j) => {
    const at = `meals[${j}]`;
    const counts: MealCount = {
      breakfasts: count(m?.breakfastsProvided, `${at}.breakfastsProvided`, errors),
      lunches: count(m?.lunchesProvided, `${at}.lunchesProvided`, errors),
      dinners: count(m?.dinnersProvided, `${at}.dinnersProvided`, errors),
    };
    const wall = typeof m?.departureTime === 'string' ? canonicalWall(m.departureTime) : null;
    if (wall === null) {
      errors.add(`${at}.departureTime`, 'Must be a row departureTime as the calculator answers it (yyyy-MM-ddTHH:mm[:ss]).');
      return;
    }
    const key = rowKey(String(m.countryCode), wall);
    const piece = byKey.get(key);
    if (piece === undefined) {
      errors.add(at, `No per-diem row departs ${m.countryCode} at ${wall}; use a (countryCode, departureTime) pair of the computed rows.`);
      return;
    }
    if (seen.has(key)) errors.add(at, 'Each row appears once.');
    seen.add(key);
    piece.meals = counts;
  });
  errors.throwIfAny();
}
