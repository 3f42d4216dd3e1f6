// The foreign per-diem rates shipped with the service (src/reference-data/per-diem-rates-foreign.csv,
// copied from ../shared/data with its sources in docs/per-diems.md): read once, grouped into one
// table version per law and validFrom. None of the shipped tables is complete (the README of the
// data names the gaps), so their `*` rows never apply; an operator's import can complete them.
import { readFileSync } from 'node:fs';
import { CsvError, parse } from 'csv-parse/sync';
import { isPerDiemLaw, type ForeignRateRow, type PerDiemLaw, type RateTableVersion } from '../../domain/per-diems/index.js';

export const SHIPPED_RATES_FILE = new URL('../../reference-data/per-diem-rates-foreign.csv', import.meta.url);

/** One row of the CSV shape (`law,validFrom,validTo,countryCode,countryName,rate,currency,source`). */
export interface RateCsvRow {
  law: string;
  validFrom: string;
  validTo: string;
  countryCode: string;
  countryName: string;
  rate: string;
  currency: string;
  source: string;
}

export const RATE_CSV_HEADER: readonly (keyof RateCsvRow)[] = [
  'law',
  'validFrom',
  'validTo',
  'countryCode',
  'countryName',
  'rate',
  'currency',
  'source',
];

/** A row with the file line it was read from (the header is line 1; a quoted line break ends it later). */
export interface NumberedRateCsvRow extends RateCsvRow {
  line: number;
}

/** The file is not the CSV shape: a syntax error or a wrong header, at a file line. */
export class RateCsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'RateCsvError';
  }
}

function checkHeader(header: string[]): string[] {
  const missing = RATE_CSV_HEADER.filter((c) => !header.includes(c));
  const unknown = header.filter((c) => !(RATE_CSV_HEADER as readonly string[]).includes(c));
  const repeated = header.filter((c, i) => header.indexOf(c) !== i);
  if (missing.length + unknown.length + repeated.length > 0) {
    const problems = [
      missing.length > 0 ? `missing ${missing.join(', ')}` : '',
      unknown.length > 0 ? `unknown ${unknown.join(', ')}` : '',
      repeated.length > 0 ? `repeated ${repeated.join(', ')}` : '',
    ].filter((p) => p !== '');
    throw new RateCsvError(1, `The header must be ${RATE_CSV_HEADER.join(',')} (${problems.join('; ')}).`);
  }
  return header;
}

/** Parses the CSV shape; each row keeps its file line. Throws RateCsvError for a malformed file. */
export function parseRateCsv(text: string): NumberedRateCsvRow[] {
  try {
    const records = parse(text, { columns: checkHeader, skip_empty_lines: true, trim: true, bom: true, info: true }) as {
      record: RateCsvRow;
      info: { lines: number };
    }[];
    // info.lines is the line the record ends on: its own line unless a quoted cell spans lines.
    return records.map(({ record, info }) => ({ ...record, line: info.lines }));
  } catch (err) {
    if (err instanceof CsvError) throw new RateCsvError(typeof err.lines === 'number' ? err.lines : 1, err.message);
    throw err;
  }
}

export function versionsOf(rows: readonly RateCsvRow[], origin: string, complete: boolean): RateTableVersion[] {
  const byVersion = new Map<string, { law: PerDiemLaw; validFrom: string; validTo: string | null; rows: Map<string, ForeignRateRow> }>();
  for (const r of rows) {
    if (!isPerDiemLaw(r.law)) throw new Error(`per-diem rate file: unknown law ${r.law}`);
    const key = `${r.law} ${r.validFrom}`;
    const version = byVersion.get(key) ?? {
      law: r.law,
      validFrom: r.validFrom,
      validTo: r.validTo === '' ? null : r.validTo,
      rows: new Map(),
    };
    version.rows.set(r.countryCode, {
      countryCode: r.countryCode,
      countryName: r.countryName,
      rate: r.rate,
      currency: r.currency,
      source: r.source,
      origin,
    });
    byVersion.set(key, version);
  }
  return [...byVersion.values()].map((v) => ({ ...v, complete }));
}

let shipped: RateTableVersion[] | undefined;
/** The shipped versions (read from disk on first use; the file is part of the release). */
export function shippedRateVersions(): RateTableVersion[] {
  shipped ??= versionsOf(parseRateCsv(readFileSync(SHIPPED_RATES_FILE, 'utf8')), 'shipped', false);
  return shipped;
}
