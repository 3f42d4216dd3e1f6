// Importing a provider file: `npm run cli -- rates import --provider HNB|ECB|CNB --file F` calls
// importRatesFile; the daily fetch calls importRatesText with the body it downloaded. Parse first,
// then store in one transaction, so a malformed file leaves the table untouched.
import { readFile } from 'node:fs/promises';
import type { Db } from '../infra/database.js';
import { parseRates } from './parse/index.js';
import type { ProviderCode } from './providers.js';
import { upsertRates } from './store.js';

export interface ImportResult {
  readonly provider: ProviderCode;
  /** Rates read from the file and upserted (re-importing counts them again). */
  readonly imported: number;
  /** Of those, rates that were new or changed. */
  readonly changed: number;
  /** Publication dates in the file, ascending. */
  readonly dates: string[];
}

export async function importRatesText(db: Db, provider: ProviderCode, text: string, origin?: string): Promise<ImportResult> {
  const rates = parseRates(provider, text, origin);
  const { written, changed } = await upsertRates(db, provider, rates);
  const dates = [...new Set(rates.map((r) => r.date))].sort();
  return { provider, imported: written, changed, dates };
}

/** Reads a provider file (UTF-8) and imports it; throws RatesFormatError naming the bad line. */
export async function importRatesFile(db: Db, provider: ProviderCode, filePath: string): Promise<ImportResult> {
  const text = await readFile(filePath, 'utf8');
  return importRatesText(db, provider, text, filePath);
}
