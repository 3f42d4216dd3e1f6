// Provided meals of a per diem. The per-meal counts are the canonical write model; the legacy
// aggregate `mealsProvided` is accepted only when all three per-meal counts are absent.
//
// Legacy mapping: the aggregate counted lunches and dinners (breakfast never reduced a Croatian
// per diem), so N meals become ceil(N/2) lunches and floor(N/2) dinners, no breakfasts:
// 1 -> 1 lunch; 2 -> 1 lunch + 1 dinner; 3 -> 2 lunches + 1 dinner. The derived mealsProvided
// (lunches + dinners) of the result is N again, so a legacy client reads back what it sent.
//
// A client that echoes a read model back sends both forms; that is accepted when the aggregate
// agrees with the per-meal counts, and rejected when it contradicts them.
import type { PerDiemFields } from './commands.js';
import type { Fields } from './validate-common.js';

export interface MealCounts {
  breakfastsProvided: number;
  lunchesProvided: number;
  dinnersProvided: number;
}

export function legacyMealsToCounts(mealsProvided: number): MealCounts {
  return { breakfastsProvided: 0, lunchesProvided: Math.ceil(mealsProvided / 2), dinnersProvided: Math.floor(mealsProvided / 2) };
}

/** Derived aggregate, always lunches + dinners (the Croatian regulation's shape). */
export const derivedMealsProvided = (c: MealCounts): number => c.lunchesProvided + c.dinnersProvided;

const absent = (v: number | null | undefined): boolean => v === null || v === undefined;

export function resolveMealCounts(input: PerDiemFields, f: Fields): MealCounts {
  const perMealAbsent = absent(input.breakfastsProvided) && absent(input.lunchesProvided) && absent(input.dinnersProvided);
  if (perMealAbsent && !absent(input.mealsProvided)) {
    const legacy = f.count('mealsProvided', input.mealsProvided);
    // An invalid aggregate is already recorded as an error; 0 only keeps the result well-formed.
    return legacyMealsToCounts(Number.isInteger(legacy) && legacy >= 0 ? legacy : 0);
  }
  const counts: MealCounts = {
    breakfastsProvided: f.count('breakfastsProvided', input.breakfastsProvided),
    lunchesProvided: f.count('lunchesProvided', input.lunchesProvided),
    dinnersProvided: f.count('dinnersProvided', input.dinnersProvided),
  };
  if (!absent(input.mealsProvided) && input.mealsProvided !== derivedMealsProvided(counts)) {
    f.errors.add(f.path('mealsProvided'), 'Contradicts lunchesProvided + dinnersProvided; send the per-meal counts only.');
  }
  return counts;
}
