// Foreign per-diem base rates: one table version per law and validFrom (a decree, an Odluka, an
// annex), each a list of destinations with the full daily rate and its currency. The shell loads
// the shipped rows once and adds the versions an operator imported (events of the stream
// `perDiemRateTable-{law}`), so the engine only reads data.
//
// The "countries not listed" row (`*`) applies only in a version marked complete: our shipped
// copies of the official tables are partial (../shared/data/README.md, Gaps), and a destination
// missing from a partial copy may well be listed officially. It is refused, never guessed.
import type { PerDiemLaw } from './law.js';

export const OTHER_COUNTRIES = '*';

export interface ForeignRateRow {
  readonly countryCode: string;
  readonly countryName: string;
  /** The full daily base rate (100 %), a decimal string. */
  readonly rate: string;
  readonly currency: string;
  readonly source: string;
  /** `shipped`, or `import r<revision>` of the law's rate-table stream: where our copy of the row came from. */
  readonly origin: string;
}

export interface RateTableVersion {
  readonly law: PerDiemLaw;
  /** First day in force; '' when the source does not say (then it applies to any earlier date). */
  readonly validFrom: string;
  /** Last day in force, or null while in force. */
  readonly validTo: string | null;
  /** True when the rows are the whole official table: only then does the `*` row apply. */
  readonly complete: boolean;
  readonly rows: ReadonlyMap<string, ForeignRateRow>;
}

export interface RateTables {
  readonly versions: readonly RateTableVersion[];
  /** Per law: the revision of its rate-table stream the tables include, or null (shipped rows only). */
  readonly revisions: Readonly<Partial<Record<PerDiemLaw, number>>>;
}

export interface ForeignRate extends ForeignRateRow {
  readonly validFrom: string;
}

// Per tables object (immutable: the shell builds a new one when an import arrives), each law's
// versions latest validFrom first and the answers already given: the engine asks for the same
// (law, destination, date) on every leg and every request. A pure memo, bounded per tables object.
interface Memo {
  readonly versions: Map<PerDiemLaw, RateTableVersion[]>;
  readonly foreign: Map<string, ForeignRate | null>;
}
const memos = new WeakMap<RateTables, Memo>();
const MAX_REMEMBERED = 50_000;

function memoOf(tables: RateTables): Memo {
  let memo = memos.get(tables);
  if (memo === undefined) memos.set(tables, (memo = { versions: new Map(), foreign: new Map() }));
  return memo;
}

function versionsOf(tables: RateTables, law: PerDiemLaw): RateTableVersion[] {
  const laws = memoOf(tables).versions;
  let list = laws.get(law);
  if (list === undefined) {
    list = tables.versions
      .filter((v) => v.law === law)
      .sort((a, b) => (a.validFrom < b.validFrom ? 1 : a.validFrom > b.validFrom ? -1 : 0));
    laws.set(law, list);
  }
  return list;
}

/** The version of a law's table in force on a date (the latest validFrom that covers it). */
export function tableVersionOn(tables: RateTables, law: PerDiemLaw, date: string): RateTableVersion | null {
  for (const v of versionsOf(tables, law)) if (v.validFrom <= date && (v.validTo === null || v.validTo >= date)) return v;
  return null;
}

/** The destination's rate on a date, or null: no version in force, or the destination is not in it. */
export function foreignRateOn(tables: RateTables, law: PerDiemLaw, countryCode: string, date: string): ForeignRate | null {
  const answers = memoOf(tables).foreign;
  const key = `${law} ${countryCode} ${date}`;
  let found = answers.get(key);
  if (found === undefined) {
    const version = tableVersionOn(tables, law, date);
    const row = version?.rows.get(countryCode) ?? (version?.complete ? version.rows.get(OTHER_COUNTRIES) : undefined);
    found = row === undefined ? null : { ...row, validFrom: version!.validFrom };
    if (answers.size >= MAX_REMEMBERED) answers.clear();
    answers.set(key, found);
  }
  return found;
}

/** A table version as an operator imported it (one event of the law's rate-table stream). */
export interface ImportedRateTable {
  readonly law: PerDiemLaw;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly complete: boolean;
  readonly rows: readonly Omit<ForeignRateRow, 'origin'>[];
  /** Revision of the event in the law's rate-table stream. */
  readonly revision: number;
}

/**
 * The shipped versions with the imports applied in order. An import for a version we have
 * completes it (its rows replace ours country by country, the rest stay); one for a new validFrom
 * adds a version, which then takes over from that date.
 */
export function withImports(shipped: readonly RateTableVersion[], imports: readonly ImportedRateTable[]): RateTables {
  const versions = [...shipped];
  const revisions: Partial<Record<PerDiemLaw, number>> = {};
  for (const imp of [...imports].sort((a, b) => a.revision - b.revision)) {
    const origin = `import r${imp.revision}`;
    const at = versions.findIndex((v) => v.law === imp.law && v.validFrom === imp.validFrom);
    const rows = new Map(at >= 0 ? versions[at]!.rows : []);
    for (const row of imp.rows) rows.set(row.countryCode, { ...row, origin });
    const version: RateTableVersion = {
      law: imp.law,
      validFrom: imp.validFrom,
      validTo: imp.validTo,
      complete: imp.complete || (at >= 0 && versions[at]!.complete),
      rows,
    };
    if (at >= 0) versions[at] = version;
    else versions.push(version);
    revisions[imp.law] = Math.max(revisions[imp.law] ?? -1, imp.revision);
  }
  return { versions, revisions };
}
