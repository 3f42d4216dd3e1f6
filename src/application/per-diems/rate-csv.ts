// The CSV shape of a foreign per-diem rate table (`law,validFrom,validTo,countryCode,countryName,
// rate,currency,source`), read for the shipped file and for an operator's import. Reading goes on
// past a record of the wrong length, so that an import is judged whole: every line's problem is
// reported at once. A syntax error (a stray quote) ends the reading at its line, because a CSV
// parser cannot tell where the next record starts after one; the lines after it are not judged,
// and the problem says so.
import { CsvError, parse } from 'csv-parse/sync';
import type { RateFileRow } from '../../domain/per-diem-rates/commands.js';

/** One row of the CSV shape, every cell a trimmed string (the rate-table command's row, without its line). */
export type RateCsvRow = Omit<RateFileRow, 'line'>;

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
export type NumberedRateCsvRow = RateFileRow;

/** A problem of the file's shape: keyed `line N`, or `file` for the file as a whole. */
export interface RateCsvProblem {
  key: string;
  message: string;
}

export interface RateCsvReading {
  rows: NumberedRateCsvRow[];
  problems: RateCsvProblem[];
}

const lineKey = (line: number): string => `line ${line}`;

function headerProblem(header: readonly string[]): string | null {
  const missing = RATE_CSV_HEADER.filter((c) => !header.includes(c));
  const unknown = header.filter((c) => !(RATE_CSV_HEADER as readonly string[]).includes(c));
  const repeated = header.filter((c, i) => header.indexOf(c) !== i);
  if (missing.length + unknown.length + repeated.length === 0) return null;
  const problems = [
    missing.length > 0 ? `missing ${missing.join(', ')}` : '',
    unknown.length > 0 ? `unknown ${unknown.join(', ')}` : '',
    repeated.length > 0 ? `repeated ${repeated.join(', ')}` : '',
  ].filter((p) => p !== '');
  return `The header must be ${RATE_CSV_HEADER.join(',')} (${problems.join('; ')}).`;
}

/** Reads every record it can, with the problems of the file's shape (never throws for the file's content). */
export function readRateCsv(text: string): RateCsvReading {
  const records: { cells: string[]; line: number }[] = [];
  const problems: RateCsvProblem[] = [];
  try {
    parse(text, {
      skip_empty_lines: true,
      trim: true,
      bom: true,
      relax_column_count: true,
      // on_record sees each record as it is read, so the records before a syntax error are kept.
      on_record: (cells: string[], context: { lines: number }) => {
        records.push({ cells, line: context.lines });
        return null;
      },
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = typeof err.lines === 'number' ? err.lines : 1;
    problems.push({ key: lineKey(line), message: `${err.message} The lines after it were not read; fix it and import again.` });
  }
  const [header, ...body] = records;
  if (header === undefined) {
    if (problems.length === 0)
      problems.push({
        key: 'file',
        message: `The file is empty: it needs the header (${RATE_CSV_HEADER.join(',')}) and one row per country.`,
      });
    return { rows: [], problems };
  }
  const wrongHeader = headerProblem(header.cells);
  // Without the header's columns no cell can be named; the header's problem is the file's.
  if (wrongHeader !== null) return { rows: [], problems: [{ key: lineKey(header.line), message: wrongHeader }, ...problems] };
  const rows: NumberedRateCsvRow[] = [];
  for (const { cells, line } of body) {
    if (cells.length !== header.cells.length) {
      problems.push({ key: lineKey(line), message: `Has ${cells.length} cells; every row has the header's ${header.cells.length}.` });
      continue;
    }
    const row = Object.fromEntries(header.cells.map((name, i) => [name, cells[i]!])) as unknown as RateCsvRow;
    rows.push({ ...row, line });
  }
  return { rows, problems };
}

/** The shipped file's rows; its shape must be right (a release with a broken table does not start). */
export function parseRateCsv(text: string): NumberedRateCsvRow[] {
  const { rows, problems } = readRateCsv(text);
  if (problems.length > 0) throw new Error(`per-diem rate CSV: ${problems.map((p) => `${p.key}: ${p.message}`).join(' ')}`);
  return rows;
}
