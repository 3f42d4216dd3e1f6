// Countries and their IANA zones (countries-and-timezones), for turning an itinerary's wall-clock
// times into instants. A country whose zones all keep the same clock (Germany's Berlin and
// Büsingen) has a default; one whose zones differ (the United States, Spain with the Canaries)
// has none, and a stop there must name its zone. Built once per process.
import { getAllCountries, getTimezone } from 'countries-and-timezones';
import type { CountryZones, ZoneDirectory } from '../../domain/per-diems/index.js';
import { COUNTRY_CODES } from '../../domain/shared/country-codes.js';

// Zones for codes the library lacks (Kosovo is not an ISO-assigned code) and the law countries'
// own zone names (the library lists Croatia under its Belgrade link).
const OWN: Readonly<Record<string, string>> = {
  XK: 'Europe/Belgrade',
  HR: 'Europe/Zagreb',
  SI: 'Europe/Ljubljana',
  SK: 'Europe/Bratislava',
  CZ: 'Europe/Prague',
};

/** Offsets at the start of each month of two years: zones with the same list keep the same clock. */
function clockOf(zone: string): string {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  const out: string[] = [];
  for (let m = 0; m < 24; m++)
    out.push(f.formatToParts(new Date(Date.UTC(2025, m, 15))).find((p) => p.type === 'timeZoneName')?.value ?? '');
  return out.join();
}

function buildDirectory(): Map<string, CountryZones> {
  const map = new Map<string, CountryZones>();
  for (const country of Object.values(getAllCountries())) {
    if (!COUNTRY_CODES.has(country.id) || country.timezones.length === 0) continue;
    // tzdata also lists a zone under countries that only share its clock (Asia/Tokyo under AU,
    // Europe/Zurich under DE): a country's own zones are those it is the first country of.
    const own = country.timezones.filter((z) => getTimezone(z)?.countries[0] === country.id);
    const zones = own.length > 0 ? own : [...country.timezones];
    const same = new Set(zones.map(clockOf)).size === 1;
    map.set(country.id, { defaultZone: same ? zones[0]! : null, zones });
  }
  for (const [code, zone] of Object.entries(OWN)) {
    const known = map.get(code)?.zones ?? [];
    map.set(code, { defaultZone: zone, zones: [zone, ...known.filter((z) => z !== zone)] });
  }
  return map;
}

// Built on first use, once per process (about half a second of Intl work): a server that never
// computes a per diem never pays it, and starting one never blocks its event loop on it.
let directory: Map<string, CountryZones> | undefined;

export function countryZones(): ZoneDirectory {
  return (countryCode) => (directory ??= buildDirectory()).get(countryCode) ?? null;
}
