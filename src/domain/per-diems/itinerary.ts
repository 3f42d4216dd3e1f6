// An itinerary as legs: leg i runs from stop i to stop i+1 and is spent in stop i's country. Each
// stop's wall-clock time becomes an instant in its country's zone, so a leg's hours are real
// elapsed time (a DST day has 23 or 25). Every problem of the stops is reported at once, keyed by
// field (`stops[2].time`).
import { FieldErrorCollector } from '../shared/field-errors.js';
import { isCountryCode } from '../shared/country-codes.js';
import type { CountryZones, Stop } from './model.js';
import { formatWall, isKnownZone, wallFieldsMs, wallToUtc } from './wall-clock.js';

export const MIN_STOPS = 2;
export const MAX_STOPS = 200;
/**
 * The longest itinerary the engine takes: a year and a day, far beyond any statutory trip (HR's is
 * 30 days without a break) and any posting a per diem is paid for. It bounds the engine's work: rows
 * grow with the days, and an itinerary from year 0001 to 9999 overflowed the stack (a 500) while a
 * century took seconds of one core (session 13's outside probe).
 */
export const MAX_SPAN_DAYS = 366;
const DAY_MS = 86_400_000;

export interface Leg {
  /** Index of the stop that starts the leg. */
  readonly stopIndex: number;
  readonly countryCode: string;
  /** The zone of the leg's country (of its starting stop). */
  readonly zone: string;
  readonly startMs: number;
  readonly endMs: number;
  /** The caller's wall-clock times of the two stops, canonical (`…T08:00`, `:ss` only when not zero). */
  readonly startWall: string;
  readonly endWall: string;
}

export type ZoneDirectory = (countryCode: string) => CountryZones | null;

export function itineraryLegs(stops: readonly Stop[], zonesOf: ZoneDirectory): Leg[] {
  const errors = new FieldErrorCollector();
  if (!Array.isArray(stops) || stops.length < MIN_STOPS) errors.add('stops', `At least ${MIN_STOPS} stops: a departure and a return.`);
  else if (stops.length > MAX_STOPS) errors.add('stops', `At most ${MAX_STOPS} stops.`);
  errors.throwIfAny();

  const placed = stops.map((stop, i) => placeStop(stop, i, zonesOf, errors));
  for (let i = 1; i < placed.length; i++) {
    const prev = placed[i - 1];
    const cur = placed[i];
    if (prev && cur && cur.ms < prev.ms) errors.add(`stops[${i}].time`, `Must not be before stops[${i - 1}].time (time goes forwards).`);
  }
  errors.throwIfAny();
  const last = placed.length - 1;
  if (placed[last]!.ms - placed[0]!.ms > MAX_SPAN_DAYS * DAY_MS)
    errors.add(`stops[${last}].time`, `The itinerary spans more than ${MAX_SPAN_DAYS} days from stops[0].time.`);
  errors.throwIfAny();

  const legs: Leg[] = [];
  for (let i = 0; i + 1 < placed.length; i++) {
    const a = placed[i]!;
    const b = placed[i + 1]!;
    legs.push({ stopIndex: i, countryCode: a.countryCode, zone: a.zone, startMs: a.ms, endMs: b.ms, startWall: a.wall, endWall: b.wall });
  }
  return legs;
}

interface Placed {
  countryCode: string;
  zone: string;
  ms: number;
  wall: string;
}

function placeStop(stop: Stop, i: number, zonesOf: ZoneDirectory, errors: FieldErrorCollector): Placed | null {
  const at = (field: string) => `stops[${i}].${field}`;
  if (stop === null || typeof stop !== 'object') {
    errors.add(`stops[${i}]`, 'Must be an object with countryCode and time.');
    return null;
  }
  const country = typeof stop.countryCode === 'string' && isCountryCode(stop.countryCode) ? stop.countryCode : null;
  const zones = country === null ? null : zonesOf(country);
  if (country === null || zones === null)
    errors.add(at('countryCode'), 'Must be an ISO 3166-1 alpha-2 country code in upper case, e.g. AT.');

  const wallMs = typeof stop.time === 'string' ? wallFieldsMs(stop.time) : null;
  if (wallMs === null) errors.add(at('time'), 'Must be a local wall-clock time yyyy-MM-ddTHH:mm[:ss] without an offset.');

  let zone: string | null = null;
  const named = stop.timeZone ?? null;
  if (named !== null) {
    if (typeof named !== 'string' || !isKnownZone(named)) errors.add(at('timeZone'), 'Must be an IANA time zone, e.g. Europe/Vienna.');
    else if (zones !== null && !zones.zones.includes(named))
      errors.add(at('timeZone'), `Is not a time zone of ${country}; one of: ${zones.zones.join(', ')}.`);
    else zone = named;
  } else if (zones !== null) {
    zone = zones.defaultZone;
    if (zone === null) errors.add(at('timeZone'), `${country} has several time zones; name one of: ${zones.zones.join(', ')}.`);
  }
  if (country === null || zone === null || wallMs === null) return null;
  return { countryCode: country, zone, ms: wallToUtc(wallMs, zone), wall: formatWall(wallMs) };
}
