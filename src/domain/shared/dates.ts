// Calendar dates (`yyyy-MM-dd`) and UTC instants (ISO 8601 with `Z`), checked without a clock.
// Dates compare as strings because the format is fixed-width.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z$/;

/** A real calendar date in `yyyy-MM-dd` (rejects `2026-02-30`). */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** An ISO 8601 instant in UTC (`2026-03-01T08:00:00Z`) naming a real moment. */
export function isUtcInstant(value: string): boolean {
  return INSTANT.test(value) && isDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value));
}

/** Milliseconds since the epoch of a valid instant; parsing is pure, unlike reading the clock. */
export const instantMillis = (value: string): number => Date.parse(value);

/** The UTC calendar date of an instant (`ctx.now` -> today for defaults). */
export const dateOfInstant = (instant: string): string => instant.slice(0, 10);
