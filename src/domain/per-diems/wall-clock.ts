// Wall-clock times (`yyyy-MM-ddTHH:mm[:ss]`, no offset) and the instants they name in an IANA zone.
// Intl's time-zone data is the platform's, read without I/O; formatters are memoised per zone
// because building one costs far more than using it (a pure cache: same input, same answer).
//
// A wall time that a DST change skips (02:30 on the last Sunday of March in Central Europe) is
// taken as the instant the clock would show had it not jumped (03:30 summer time); one that occurs
// twice (02:30 on the last Sunday of October) is the earlier. These are the `compatible` choices of
// ECMAScript Temporal and of RFC 5545.

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The wall time as milliseconds of the same fields read as UTC, or null when it is not a real time. */
export function wallFieldsMs(wall: string): number | null {
  const m = WALL.exec(wall);
  if (m === null) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const s = m[6] === undefined ? 0 : Number(m[6]);
  if (h > 23 || mi > 59 || s > 59 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

const daysInMonth = (y: number, mo: number): number =>
  mo === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True when Intl knows the zone. */
export function isKnownZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's wall clock at an instant, as milliseconds of its fields read as UTC. */
function wallMsAt(zone: string, utcMs: number): number {
  const parts = formatter(zone).formatToParts(new Date(utcMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
}

const exactOffset = (zone: string, utcMs: number): number => {
  const second = Math.floor(utcMs / 1000) * 1000;
  return wallMsAt(zone, second) - second;
};

// Offsets at the two ends of each UTC day a zone was asked about: where they agree (every day but
// the few with a transition) the whole day has that offset, and no formatter runs again. Bounded:
// cleared when it grows past MAX_CACHED_DAYS (a pure cache: same input, same answer).
const dayOffsets = new Map<string, readonly [number, number]>();
const MAX_CACHED_DAYS = 100_000;

/** Offset of the zone from UTC at an instant, in milliseconds (local = utc + offset). */
export function offsetAt(zone: string, utcMs: number): number {
  const day = Math.floor(utcMs / DAY_MS);
  const key = `${zone} ${day}`;
  let ends = dayOffsets.get(key);
  if (ends === undefined) {
    if (dayOffsets.size >= MAX_CACHED_DAYS) dayOffsets.clear();
    ends = [exactOffset(zone, day * DAY_MS), exactOffset(zone, (day + 1) * DAY_MS - 1000)];
    dayOffsets.set(key, ends);
  }
  return ends[0] === ends[1] ? ends[0] : exactOffset(zone, utcMs);
}

/** The instant of a wall time in a zone (see the file comment for skipped and repeated times). */
export function wallToUtc(wallMs: number, zone: string): number {
  // Offsets in force half a day either side bracket any transition near the wall time.
  const before = offsetAt(zone, wallMs - DAY_MS / 2);
  const after = offsetAt(zone, wallMs + DAY_MS / 2);
  // No transition within half a day either side (all but two days a year): one offset.
  if (before === after) return wallMs - before;
  const candidates = [...new Set([before, after])].map((o) => wallMs - o).filter((t) => offsetAt(zone, t) === wallMs - t);
  if (candidates.length > 0) return Math.min(...candidates);
  // Skipped by a jump forward: read it with the offset before the jump.
  return wallMs - before;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Milliseconds of wall fields as `yyyy-MM-ddTHH:mm`, with `:ss` only where the seconds are not zero. */
export function formatWall(wallMs: number): string {
  const t = new Date(wallMs);
  const base = `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
  return t.getUTCSeconds() === 0 ? base : `${base}:${pad(t.getUTCSeconds())}`;
}

/** The wall time a zone shows at an instant. */
export const utcToWall = (utcMs: number, zone: string): string => formatWall(utcMs + offsetAt(zone, utcMs));

/** The calendar date (`yyyy-MM-dd`) a zone shows at an instant. */
export const dateInZone = (utcMs: number, zone: string): string => utcToWall(utcMs, zone).slice(0, 10);

/** Canonical form of a wall time for comparing keys (`…T08:00` and `…T08:00:00` are one time). */
export function canonicalWall(wall: string): string | null {
  const ms = wallFieldsMs(wall);
  return ms === null ? null : formatWall(ms);
}

/** The ISO instant (`2026-03-01T07:00:00Z`) of epoch milliseconds, without milliseconds. */
export function isoInstant(utcMs: number): string {
  const t = new Date(utcMs);
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}Z`;
}
