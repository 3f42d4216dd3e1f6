// One hour of a trip is paid once: an entry's per diems must not cover the same time. The engine
// computes each row sent on its own, so two rows over the same hours were both paid (the payroll
// try, session 26: a POST of a per diem retried without an Idempotency-Key paid one day in Austria
// twice, and three equal rows in a create paid it three times). Rows may meet, one arriving when
// the next departs, as the legs of an itinerary do. Legacy imports are stored as given and not held
// to this (validate-content.ts).
import type { FieldErrorCollector } from '../shared/field-errors.js';
import { instantMillis } from '../shared/dates.js';
import type { PerDiem } from './model.js';

type Span = Pick<PerDiem, 'id' | 'departureTime' | 'arrivalTime'>;

/** The first of `others` whose time `row` shares, if any; rows without valid times are left to their own errors. */
function overlapped(row: Span, others: readonly Span[]): Span | undefined {
  const from = instantMillis(row.departureTime);
  const to = instantMillis(row.arrivalTime);
  if (!(from < to)) return undefined;
  return others.find((o) => o.id !== row.id && instantMillis(o.departureTime) < to && from < instantMillis(o.arrivalTime));
}

const problem = (other: Span, name: string): string =>
  `Overlaps ${name} (${other.departureTime} to ${other.arrivalTime}): the same time is paid once; change or remove that one instead.`;

/** Whether `row` is one of `stored` with the same times (stored before this rule, it may overlap). */
const unchanged = (row: Span, stored: readonly Span[]): boolean =>
  stored.some((s) => s.id === row.id && s.departureTime === row.departureTime && s.arrivalTime === row.arrivalTime);

/**
 * Whole-entry writes: each row against the rows before it, keyed `perDiems[i].departureTime`. Two
 * rows a replacement sends back with their stored times are not held against each other: an entry
 * stored before this rule stays editable; a row it adds or moves must fit.
 */
export function checkPerDiemList(rows: readonly Span[], errors: FieldErrorCollector, stored: readonly Span[] = []): void {
  const kept = rows.map((row) => unchanged(row, stored));
  rows.forEach((row, i) => {
    const j = rows.findIndex((other, k) => k < i && !(kept[i] && kept[k]) && overlapped(row, [other]) !== undefined);
    if (j >= 0) errors.add(`perDiems[${i}].departureTime`, problem(rows[j]!, `perDiems[${j}]`));
  });
}

/** A single row added or changed: against the entry's other rows, keyed `departureTime` (times kept: as stored). */
export function checkPerDiemRow(row: Span, stored: readonly Span[], errors: FieldErrorCollector): void {
  if (unchanged(row, stored)) return;
  const other = overlapped(row, stored);
  if (other !== undefined) errors.add('departureTime', problem(other, `the per diem ${other.id}`));
}
