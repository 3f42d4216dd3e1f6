// Calendar dates (`yyyy-MM-dd`) and UTC instants (ISO 8601 with `Z`), checked without a clock.
// Dates compare as strings because the format is fixed-width.

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z$/;

/** The number of `length` ASCII digits at `from` (the caller has checked they are digits). */
function digitsAt(s: string, from: number, length: number): number {
  let n = 0;
  for (let i = from; i < from + length; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A real calendar date in `yyyy-MM-dd` (rejects `2026-02-30`), years 0100 to 9999. Arithmetic, not a
 * Date: this runs on every date of every request, and a Date, a match array and its numbers cost
 * allocations there (sessions 9 and 10 saw it in the calculator's profile). Years below 0100 stay
 * refused, as the Date-based check refused them (Date.UTC reads 0–99 as 1900–1999);
 * test/domain/shared/values.test.ts holds the two equal over every year, month and day.
 */
export function isDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const y = digitsAt(value, 0, 4);
  const m = digitsAt(value, 5, 2);
  const d = digitsAt(value, 8, 2);
  if (y < 100 || m < 1 || m > 12 || d < 1) return false;
  return d <= (m === 2 && isLeapYear(y) ? 29 : DAYS_IN_MONTH[m - 1]!);
}

/** An ISO 8601 instant in UTC (`2026-03-01T08:00:00Z`) naming a real moment. */
export function isUtcInstant(value: string): boolean {
  return INSTANT.test(value) && isDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value));
}

/** Milliseconds since the epoch of a valid instant; parsing is pure, unlike reading the clock. */
export const instantMillis = (value: string): number => Date.parse(value);

/** The UTC calendar date of an instant (`ctx.now` -> today for defaults). */
export const dateOfInstant = (instant: string): string => instant.slice(0, 10);
