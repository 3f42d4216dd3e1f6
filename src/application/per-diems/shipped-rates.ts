// The foreign per-diem rates shipped with the service (src/reference-data/per-diem-rates-foreign.csv,
// copied from ../shared/data with its sources in docs/per-diems.md): read once, grouped into one
// table version per law and validFrom. None of the shipped tables is complete (the README of the
// data names the gaps), so their `*` rows never apply; an operator's import can complete them.
import { readFileSync } from 'node:fs';
import { parseRateCsv, type RateCsvRow } from './rate-csv.js';
import { isPerDiemLaw, type ForeignRateRow, type PerDiemLaw, type RateTableVersion } from '../../domain/per-diems/index.js';

export const SHIPPED_RATES_FILE = new URL('../../reference-data/per-diem-rates-foreign.csv', import.meta.url);

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
