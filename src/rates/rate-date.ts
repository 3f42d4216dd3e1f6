// Calendar-date strings (yyyy-MM-dd). Rates are valid for a date, not an instant, so they are
// handled as plain strings with UTC arithmetic: no time zone can shift a day.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

export function assertIsoDate(value: string, what = 'date'): void {
  if (!isIsoDate(value)) throw new RangeError(`${what} must be a calendar date yyyy-MM-dd (got "${value}")`);
}

export function addDays(isoDate: string, days: number): string {
  assertIsoDate(isoDate);
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * How far back a missing publication may be bridged: weekends, holiday runs (Easter: Good Friday
 * to Easter Monday) and a CNB holiday next to a weekend all fit; a feed that has been silent for
 * longer means a gap in our data, and then the client is asked for a manual rate instead.
 */
export const FALLBACK_DAYS = 7;

/** The publication dates a rate for `date` may come from: `date` itself back to FALLBACK_DAYS before it. */
export function fallbackWindow(date: string): { readonly earliest: string; readonly latest: string } {
  return { earliest: addDays(date, -FALLBACK_DAYS), latest: date };
}

/**
 * The rate that applies on `date`, of one currency's publications listed newest first: the latest
 * published on or before the date within FALLBACK_DAYS, else null. The rule of findRate
 * (src/rates/lookup.ts), for callers that read a span of publications at once.
 */
export function applicableRate<T extends { readonly date: string }>(newestFirst: readonly T[], date: string): T | null {
  const { earliest, latest } = fallbackWindow(date);
  for (const r of newestFirst) {
    if (r.date > latest) continue;
    return r.date >= earliest ? r : null;
  }
  return null;
}
