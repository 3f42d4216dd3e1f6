// The Croatian and Slovenian municipality lists shipped with the service
// (src/reference-data/municipalities-hr.csv and -si.csv, copied from ../shared/data; their sources
// are in docs/reference-data.md): read once, on first use, and kept for the process.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

export interface CroatianMunicipality {
  /** DGU register number (5 digits, leading zeros kept, mod-11 check digit). */
  code: string;
  name: string;
  type: 'grad' | 'općina';
  county: string;
}
export interface SlovenianMunicipality {
  /** GURS municipality number, zero-padded to 3 digits. */
  code: string;
  name: string;
  region: string;
}

export type MunicipalityCountry = 'HR' | 'SI';

interface MunicipalityList<T extends { code: string; name: string }> {
  readonly items: readonly T[];
  readonly codes: ReadonlySet<string>;
  /** A hash of the file: what changes when a new list ships (part of every ETag). */
  readonly version: string;
  /** Per item: the folded name from each of its words to the end (`dobrova polhov gradec`, `polhov gradec`, `gradec`). */
  readonly tails: readonly (readonly string[])[];
}

const FILES: Record<MunicipalityCountry, URL> = {
  HR: new URL('../../reference-data/municipalities-hr.csv', import.meta.url),
  SI: new URL('../../reference-data/municipalities-si.csv', import.meta.url),
};
const COLUMNS: Record<MunicipalityCountry, readonly string[]> = { HR: ['code', 'name', 'type', 'county'], SI: ['code', 'name', 'region'] };

/** Lower case without combining marks: `Čakovec` → `cakovec`, `Đakovo` stays `đakovo` (a letter, not a mark). */
export function foldName(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/đ/g, 'd');
}

/** The folded words of a name or a search: punctuation and hyphens separate words like spaces. */
const wordsOf = (s: string): string[] =>
  foldName(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');

const cache = new Map<MunicipalityCountry, MunicipalityList<{ code: string; name: string }>>();

function load<T extends { code: string; name: string }>(country: MunicipalityCountry): MunicipalityList<T> {
  const hit = cache.get(country);
  if (hit) return hit as unknown as MunicipalityList<T>;
  const text = readFileSync(FILES[country], 'utf8');
  const items = parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const header = Object.keys(items[0] ?? {});
  if (header.join(',') !== COLUMNS[country].join(',')) {
    throw new Error(`${FILES[country].pathname}: the header must be ${COLUMNS[country].join(',')}`);
  }
  const list: MunicipalityList<T> = {
    items: items as unknown as T[],
    codes: new Set(items.map((r) => r.code!)),
    version: createHash('sha256').update(text).digest('base64url').slice(0, 16),
    tails: items.map((r) => {
      const words = wordsOf(r.name!);
      return words.map((_, k) => words.slice(k).join(' '));
    }),
  };
  cache.set(country, list as unknown as MunicipalityList<{ code: string; name: string }>);
  return list;
}

export const croatianMunicipalities = (): MunicipalityList<CroatianMunicipality> => load<CroatianMunicipality>('HR');
export const slovenianMunicipalities = (): MunicipalityList<SlovenianMunicipality> => load<SlovenianMunicipality>('SI');

/** The known codes per country, for checking an employee address (a fact the shell passes in). */
export function municipalityCodes(): Readonly<Record<MunicipalityCountry, ReadonlySet<string>>> {
  return { HR: croatianMunicipalities().codes, SI: slovenianMunicipalities().codes };
}

/**
 * Filters a list: `code` exactly; `search` folded (lower case, no diacritics, đ as d, punctuation
 * as a space) as a prefix of the name read from any of its words: `cak` finds Čakovec, `gradec`
 * finds Dobrova-Polhov Gradec, `polhov g` and `novigrad cit` work too. Order stays the file's (by code).
 */
export function filterMunicipalities<T extends { code: string; name: string }>(
  list: MunicipalityList<T>,
  q: { search?: string | undefined; code?: string | undefined },
): T[] {
  const needle = q.search === undefined ? '' : wordsOf(q.search).join(' ');
  return list.items.filter((m, i) => {
    if (q.code !== undefined && m.code !== q.code) return false;
    if (needle === '') return true;
    return list.tails[i]!.some((tail) => tail.startsWith(needle));
  });
}
