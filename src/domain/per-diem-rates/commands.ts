// The command of the rate-table stream: an operator's file, row by row with its file lines, and
// the shipped versions of the law (facts the shell looks up: the release's CSV), which the
// decider needs to refuse a period that overlaps one of them.
import type { PerDiemLaw } from '../per-diems/law.js';

/** One row of the file as read (every cell a trimmed string), with its file line (header = line 1). */
export interface RateFileRow {
  line: number;
  law: string;
  validFrom: string;
  validTo: string;
  countryCode: string;
  countryName: string;
  rate: string;
  currency: string;
  source: string;
}

/** A version's period: validFrom '' when its source names no first day; validTo null while in force. */
export interface RatePeriod {
  validFrom: string;
  validTo: string | null;
}

export type ImportPerDiemRates = {
  type: 'ImportPerDiemRates';
  data: {
    /** `--law`: the stream's law. */
    law: PerDiemLaw;
    /** `--valid-from`: every row must say the same. */
    validFrom: string;
    /** `--complete`: the rows are the whole official table, so its `*` row applies. */
    complete: boolean;
    fileName: string;
    rows: RateFileRow[];
    /** Lines that could not be read as rows (wrong cell count, a syntax error), or `file` for an empty one. */
    problems: { key: string; message: string }[];
    /** The shipped versions of this law (looked up by the shell). */
    shippedVersions: RatePeriod[];
  };
};

export type PerDiemRateTableCommand = ImportPerDiemRates;
