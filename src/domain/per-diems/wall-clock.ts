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

// Parsed by hand, not by a regular expression: the engine reads every stop's and every meal's time,
// and this is the shape `^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$` exactly.
const digits = (s: string, from: number, count: number): number => {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
};
const COLON = 58;
const DASH = 45;
const LETTER_T = 84;

/** The wall time as milliseconds of the same fields read as UTC, or null when it is not a real time. */
export function wallFieldsMs(wall: string): number | null {
  if (wall.length !== 16 && wall.length !== 19) return null;
  if (wall.charCodeAt(4) !== DASH || wall.charCodeAt(7) !== DASH || wall.charCodeAt(10) !== LETTER_T || wall.charCodeAt(13) !== COLON)
    return null;
  if (wall.length === 19 && wall.charCodeAt(16) !== COLON) return null;
  const y = digits(wall, 0, 4);
  const mo = digits(wall, 5, 2);
  const d = digits(wall, 8, 2);
  const h = digits(wall, 11, 2);
  const mi = digits(wall, 14, 2);
  const s = wall.length === 19 ? digits(wall, 17, 2) : 0;
  if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || s < 0) return null;
  if (h > 23 || mi > 59 || s > 59 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return utcFieldsMs(y, mo, d, h, mi, s);
}

/** 400 Gregorian years, to the day: the calendar repeats after them. */
const FOUR_CENTURIES_MS = 146_097 * DAY_MS;

/** Date.UTC for any year from 0: Date.UTC reads the years 0–99 as 1900–1999. */
function utcFieldsMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  return y >= 100 ? Date.UTC(y, mo - 1, d, h, mi, s) : Date.UTC(y + 400, mo - 1, d, h, mi, s) - FOUR_CENTURIES_MS;
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
      era: 'short', // the year 0 is 1 BC to Intl
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
  const year = parts.some((p) => p.type === 'era' && p.value === 'BC') ? 1 - get('year') : get('year');
  return utcFieldsMs(year, get('month'), get('day'), get('hour') % 24, get('minute'), get('second'));
}

const exactOffset = (zone: string, utcMs: number): number => {
  const second = Math.floor(utcMs / 1000) * 1000;
  return wallMsAt(zone, second) - second;
};

// Per zone, each UTC day it was asked about: the offset of the whole day where the offsets at its
// two ends agree (every day but the few with a transition), else NaN (the formatter decides). A
// map per zone keyed by the day number: no string key is built per lookup. Bounded: cleared when
// it grows past MAX_CACHED_DAYS (a pure cache: same input, same answer).
const dayOffsets = new Map<string, Map<number, number>>();
let cachedDays = 0;
const MAX_CACHED_DAYS = 100_000;

/** Offset of the zone from UTC at an instant, in milliseconds (local = utc + offset). */
export function offsetAt(zone: string, utcMs: number): number {
  const day = Math.floor(utcMs / DAY_MS);
  let days = dayOffsets.get(zone);
  let whole = days?.get(day);
  if (whole === undefined) {
    if (cachedDays >= MAX_CACHED_DAYS) {
      dayOffsets.clear();
      cachedDays = 0;
      days = undefined;
    }
    if (days === undefined) dayOffsets.set(zone, (days = new Map()));
    const first = exactOffset(zone, day * DAY_MS);
    whole = first === exactOffset(zone, (day + 1) * DAY_MS - 1000) ? first : Number.NaN;
    days.set(day, whole);
    cachedDays++;
  }
  return Number.isNaN(whole) ? exactOffset(zone, utcMs) : whole;
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

// Years 0000–9999 are written from the day number and the time of day, with each day's
// `yyyy-MM-dd` remembered: a Date object and five getters per field are the slow way, and
// Date#toISOString slower still. Other instants take the long way (same text as before).
const ISO_MIN_MS = -62_167_219_200_000;
const ISO_END_MS = 253_402_300_800_000;
const isoRange = (ms: number): boolean => ms >= ISO_MIN_MS && ms < ISO_END_MS;
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => pad(i));
const dayTexts = new Map<number, string>();

/** `yyyy-MM-dd` of a day number (days since 1970-01-01), by the civil-from-days algorithm (H. Hinnant). */
function dayText(days: number): string {
  let text = dayTexts.get(days);
  if (text === undefined) {
    const z = days + 719_468;
    const era = Math.floor(z / 146_097);
    const doe = z - era * 146_097;
    const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
    const mp = Math.floor((5 * doy + 2) / 153);
    const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
    const m = mp < 10 ? mp + 3 : mp - 9;
    const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
    text = `${pad(y, 4)}-${TWO_DIGITS[m]}-${TWO_DIGITS[d]}`;
    if (dayTexts.size >= MAX_CACHED_DAYS) dayTexts.clear();
    dayTexts.set(days, text);
  }
  return text;
}

/** Day number, hours, minutes and seconds of milliseconds in the ISO range (milliseconds dropped). */
function fieldsOf(ms: number): [days: number, h: number, mi: number, s: number] {
  const days = Math.floor(ms / DAY_MS);
  const secs = Math.floor((ms - days * DAY_MS) / 1000);
  const h = Math.floor(secs / 3600);
  const mi = Math.floor((secs - h * 3600) / 60);
  return [days, h, mi, secs - h * 3600 - mi * 60];
}

/** Milliseconds of wall fields as `yyyy-MM-ddTHH:mm`, with `:ss` only where the seconds are not zero. */
export function formatWall(wallMs: number): string {
  if (isoRange(wallMs)) {
    const [days, h, mi, sec] = fieldsOf(wallMs);
    const base = `${dayText(days)}T${TWO_DIGITS[h]}:${TWO_DIGITS[mi]}`;
    return sec === 0 ? base : `${base}:${TWO_DIGITS[sec]}`;
  }
  const t = new Date(wallMs);
  const base = `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
  return t.getUTCSeconds() === 0 ? base : `${base}:${pad(t.getUTCSeconds())}`;
}

/** The `yyyy-MM-dd` of wall-field milliseconds in years 0000–9999; null outside them (callers keep their own form). */
export const wallDateInRange = (wallMs: number): string | null => (isoRange(wallMs) ? dayText(Math.floor(wallMs / DAY_MS)) : null);

/** The wall time a zone shows at an instant. */
export const utcToWall = (utcMs: number, zone: string): string => formatWall(utcMs + offsetAt(zone, utcMs));

/** The calendar date (`yyyy-MM-dd`) a zone shows at an instant. */
export const dateInZone = (utcMs: number, zone: string): string =>
  wallDateInRange(utcMs + offsetAt(zone, utcMs)) ?? utcToWall(utcMs, zone).slice(0, 10);

/** Canonical form of a wall time for comparing keys (`…T08:00` and `…T08:00:00` are one time). */
export function canonicalWall(wall: string): string | null {
  const ms = wallFieldsMs(wall);
  return ms === null ? null : formatWall(ms);
}

/** The ISO instant (`2026-03-01T07:00:00Z`) of epoch milliseconds, without milliseconds. */
export function isoInstant(utcMs: number): string {
  if (isoRange(utcMs)) {
    const [days, h, mi, sec] = fieldsOf(utcMs);
    return `${dayText(days)}T${TWO_DIGITS[h]}:${TWO_DIGITS[mi]}:${TWO_DIGITS[sec]}Z`;
  }
  const t = new Date(utcMs);
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}Z`;
}
