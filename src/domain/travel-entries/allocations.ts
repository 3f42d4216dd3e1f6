// Cost-center shares must add up to 100 % whenever an entry has any allocation. Whole-entry
// writes (create, import, replace) must satisfy that at once; a single-row add, change or remove
// cannot (moving from 100 to 60 + 40 takes two steps), so those only keep the total at or below
// 100 and the exact total is enforced again at submission, before anyone approves it.
import type { FieldErrorCollector } from '../shared/field-errors.js';
import { compareDecimals, sumDecimals } from '../shared/decimal.js';
import type { CostCenterAllocation } from './model.js';

export const ALLOCATIONS_FIELD = 'costCenterAllocations';

const total = (rows: readonly CostCenterAllocation[]): string => sumDecimals(rows.map((r) => r.share));

/** Whole-entry rule: none, or exactly 100 in total; each cost center at most once. */
export function checkCompleteAllocations(rows: readonly CostCenterAllocation[], errors: FieldErrorCollector): void {
  checkDistinctCostCenters(rows, errors, (i) => `${ALLOCATIONS_FIELD}[${i}].costCenterId`);
  if (rows.length > 0 && compareDecimals(total(rows), '100') !== 0) {
    errors.add(ALLOCATIONS_FIELD, `The shares must add up to 100; they add up to ${total(rows)}.`);
  }
}

/** Single-row rule: the total may not exceed 100; each cost center at most once. */
export function checkPartialAllocations(rows: readonly CostCenterAllocation[], errors: FieldErrorCollector): void {
  checkDistinctCostCenters(rows, errors, () => 'costCenterId');
  if (compareDecimals(total(rows), '100') > 0) {
    errors.add(ALLOCATIONS_FIELD, `The shares may not add up to more than 100; they would add up to ${total(rows)}.`);
  }
}

function checkDistinctCostCenters(rows: readonly CostCenterAllocation[], errors: FieldErrorCollector, pathOf: (i: number) => string): void {
  // Without case: an allocation recorded before ids were lower-cased at the door may be upper-case.
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const id = row.costCenterId.toLowerCase();
    if (seen.has(id)) errors.add(pathOf(i), 'Each cost center appears once per entry.');
    seen.add(id);
  });
}
