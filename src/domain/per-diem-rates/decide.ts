// Importing a foreign per-diem rate table: the file is judged whole and refused whole. Every
// problem is reported at once, keyed by its file line (`line 3`), or by `file`, `validFrom` or
// `validTo` for what concerns the table as a whole.
//
// Periods. A law's versions are chosen by date: the latest validFrom that covers it
// (../per-diems/rate-table.ts, tableVersionOn). An open-ended version (no validTo) simply gives way
// to a later validFrom. A version that names its last day, though, says when it ends: another
// version (shipped or imported, with a different validFrom) may not start on or before that day
// after it began. So two versions A and B with A.validFrom < B.validFrom conflict exactly when
// A.validTo is set and A.validTo >= B.validFrom. The same validFrom is no overlap: the import
// completes or corrects that version (its rows replace ours country by country, its validTo
// replaces ours).
import type { CommandContext } from '../decider.js';
import { validationError } from '../errors.js';
import { OTHER_COUNTRIES } from '../per-diems/rate-table.js';
import { isCountryCode } from '../shared/country-codes.js';
import { isCurrencyCode } from '../shared/currency-codes.js';
import { isDate } from '../shared/dates.js';
import { compareDecimals, decimalProblem } from '../shared/decimal.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import { textProblem } from '../shared/text.js';
import type { PerDiemRateTableCommand, RateFileRow, RatePeriod } from './commands.js';
import type { ImportedRateRow, PerDiemRateTableEvent } from './events.js';
import type { PerDiemRateTableState } from './state.js';

const MAX_TEXT = 200;
/**
 * The largest daily rate a table may hold. Published rates are tens to a few hundred units of
 * EUR, USD or GBP; a bound keeps a slipped decimal point from paying millions, and keeps every
 * per diem (rate × days, at most 366) under the money bound of 1,000,000,000 (shared/decimal.ts).
 */
export const MAX_RATE = '1000000';
/** Lines reported one by one; a file wrong on every line would otherwise answer a wall of text. */
export const MAX_LINES_REPORTED = 100;

const shown = (value: string): string => (value === '' ? '(empty)' : `"${value}"`);

function checkRows(c: FieldErrorCollector, law: string, validFrom: string, rows: readonly RateFileRow[], unread: number): void {
  if (rows.length === 0 && unread === 0) c.add('file', 'The file has a header and no rows: one row per country is needed.');
  const lineOf = new Map<string, number>();
  const first = rows[0];
  for (const row of rows) {
    const add = (message: string): void => c.add(`line ${row.line}`, message);
    if (row.law !== law) add(`law: must be ${law} (--law), found ${shown(row.law)}.`);
    if (row.validFrom === '') add(`validFrom: must not be empty in an import; every row names the first day in force (${validFrom}).`);
    else if (row.validFrom !== validFrom) add(`validFrom: must be ${validFrom} (--valid-from), found ${shown(row.validFrom)}.`);
    if (row.validTo !== '' && !isDate(row.validTo)) add(`validTo: must be empty or a date (yyyy-MM-dd), found ${shown(row.validTo)}.`);
    else if (row.validTo !== '' && row.validTo < validFrom) add(`validTo: ${row.validTo} is before validFrom ${validFrom}.`);
    if (first !== undefined && row !== first && row.validTo !== first.validTo)
      add(`validTo: ${shown(row.validTo)} differs from line ${first.line} (${shown(first.validTo)}); one table has one period.`);
    if (row.countryCode !== OTHER_COUNTRIES && !isCountryCode(row.countryCode)) {
      add(`countryCode: must be an upper-case ISO 3166-1 alpha-2 code or ${OTHER_COUNTRIES}, found ${shown(row.countryCode)}.`);
    } else {
      const seen = lineOf.get(row.countryCode);
      if (seen !== undefined)
        add(
          `countryCode: ${row.countryCode} is already on line ${seen}; one country has one rate in a period (two rows would be overlapping periods).`,
        );
      else lineOf.set(row.countryCode, row.line);
    }
    const name = textProblem(row.countryName === '' ? null : row.countryName, { required: true, maxLength: MAX_TEXT });
    if (name !== null) add(`countryName: ${name}`);
    const rate = decimalProblem(row.rate, { min: 'positive', maxScale: 2 });
    if (rate !== null) add(`rate: ${rate} Found ${shown(row.rate)}.`);
    else if (compareDecimals(row.rate, MAX_RATE) > 0)
      add(`rate: At most ${MAX_RATE} a day; found ${shown(row.rate)} (a rate this large is a typing mistake, not a decree).`);
    if (!isCurrencyCode(row.currency)) add(`currency: must be an ISO 4217 currency code such as EUR, found ${shown(row.currency)}.`);
    const source = textProblem(row.source === '' ? null : row.source, { required: true, maxLength: MAX_TEXT });
    if (source !== null) add(`source: ${source}`);
  }
}

const describe = (v: RatePeriod & { origin: string }): string =>
  `${v.origin} version ${v.validFrom === '' ? '(no first day)' : `from ${v.validFrom}`} to ${v.validTo ?? '(open)'}`;

function checkPeriod(
  c: FieldErrorCollector,
  period: RatePeriod,
  shippedVersions: readonly RatePeriod[],
  state: PerDiemRateTableState,
): void {
  const known = new Map<string, RatePeriod & { origin: string }>();
  for (const v of shippedVersions) known.set(v.validFrom, { ...v, origin: 'the shipped' });
  // An import of a shipped validFrom replaces its validTo (withImports), so the imported one counts.
  for (const v of state.versions.values()) known.set(v.validFrom, { validFrom: v.validFrom, validTo: v.validTo, origin: 'the imported' });
  for (const other of known.values()) {
    if (other.validFrom === period.validFrom) continue;
    if (other.validFrom < period.validFrom && other.validTo !== null && other.validTo >= period.validFrom)
      c.add('validFrom', `${period.validFrom} falls in ${describe(other)}: two versions would cover ${period.validFrom}.`);
    if (other.validFrom > period.validFrom && period.validTo !== null && period.validTo >= other.validFrom)
      c.add('validTo', `${period.validTo} reaches into ${describe(other)}: two versions would cover ${other.validFrom}.`);
  }
}

const lineNumber = (key: string): number => (key.startsWith('line ') ? Number(key.slice(5)) : 0);

/**
 * The errors in file order (the file's and the period's first, then line by line); only the first
 * MAX_LINES_REPORTED lines with problems are listed, and the rest are counted.
 */
function reported(errors: Record<string, string[]>): Record<string, string[]> {
  const ordered = Object.entries(errors).sort(([a], [b]) => lineNumber(a) - lineNumber(b));
  const lines = ordered.filter(([k]) => lineNumber(k) > 0).length;
  const kept = Object.fromEntries(ordered.slice(0, ordered.length - lines + Math.min(lines, MAX_LINES_REPORTED)));
  if (lines > MAX_LINES_REPORTED)
    kept.file = [...(kept.file ?? []), `${lines - MAX_LINES_REPORTED} more lines have problems (not listed).`];
  return kept;
}

const toEventRow = (r: RateFileRow): ImportedRateRow => ({
  countryCode: r.countryCode,
  countryName: r.countryName,
  rate: r.rate,
  currency: r.currency,
  source: r.source,
});

const sameRow = (a: ImportedRateRow | undefined, b: ImportedRateRow): boolean =>
  a !== undefined && a.countryName === b.countryName && a.rate === b.rate && a.currency === b.currency && a.source === b.source;

export function decide(command: PerDiemRateTableCommand, state: PerDiemRateTableState, ctx: CommandContext): PerDiemRateTableEvent[] {
  switch (command.type) {
    case 'ImportPerDiemRates': {
      const { law, validFrom, complete, fileName, rows, problems, shippedVersions } = command.data;
      const c = new FieldErrorCollector();
      if (!isDate(validFrom)) {
        c.add('validFrom', `--valid-from must be a date (yyyy-MM-dd), found ${shown(validFrom)}.`);
        c.throwIfAny();
      }
      for (const p of problems) c.add(p.key, p.message);
      checkRows(c, law, validFrom, rows, problems.length);
      if (c.isEmpty) {
        const validTo = rows[0]!.validTo === '' ? null : rows[0]!.validTo;
        checkPeriod(c, { validFrom, validTo }, shippedVersions, state);
      }
      if (!c.isEmpty) throw validationError(reported(c.errors), `The ${law} rate table was refused as a whole; nothing was imported.`);

      const validTo = rows[0]!.validTo === '' ? null : rows[0]!.validTo;
      const eventRows = rows.map(toEventRow);
      // Importing the same table again records nothing (a re-run of the operator's command).
      const current = state.versions.get(validFrom);
      if (
        current !== undefined &&
        current.validTo === validTo &&
        (!complete || current.complete) &&
        eventRows.every((r) => sameRow(current.rows.get(r.countryCode), r))
      )
        return [];
      return [{ type: 'PerDiemRatesImported', data: { law, validFrom, validTo, complete, rows: eventRows, fileName, at: ctx.now } }];
    }
    default: {
      const unknown: never = command.type;
      return unknown;
    }
  }
}
