// `npm run cli -- per-diem-rates import --law HR --valid-from 2024-02-08 --file table.csv [--complete]`:
// the operator's file is parsed here (file lines kept) and judged whole by the rate-table decider
// (src/domain/per-diem-rates/decide.ts), which records one PerDiemRatesImported event through the
// one write path, or refuses the file with line-numbered errors and records nothing.
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { handleCommand } from '../command-handler.js';
import { DomainError, validationError } from '../../domain/errors.js';
import type { PerDiemLaw } from '../../domain/per-diems/law.js';
import {
  PLATFORM_TENANT_ID,
  perDiemRateTableDecider,
  rateTableStream,
  type ImportPerDiemRates,
} from '../../domain/per-diem-rates/index.js';
import type { EventStore } from '../../eventstore/port.js';
import { readRateCsv } from './rate-csv.js';
import { shippedRateVersions } from './shipped-rates.js';

/** A rate table is a few hundred short rows; a larger file is not one. */
export const MAX_RATE_FILE_BYTES = 1024 * 1024;

export interface RateTableImport {
  law: PerDiemLaw;
  validFrom: string;
  complete: boolean;
  /** Recorded in the event, for the record. */
  fileName: string;
  text: string;
}

export interface RateTableImportResult {
  law: PerDiemLaw;
  validFrom: string;
  validTo: string | null;
  complete: boolean;
  rows: number;
  /** False when the same table was already imported (nothing recorded). */
  recorded: boolean;
  /** The law's rate-table stream revision after the import. */
  revision: number;
}

export async function importPerDiemRateTable(store: EventStore, req: RateTableImport): Promise<RateTableImportResult> {
  // The rows read, and the lines that could not be read as rows: the decider judges both at once.
  const { rows, problems } = readRateCsv(req.text);
  const shippedVersions = shippedRateVersions()
    .filter((v) => v.law === req.law)
    .map((v) => ({ validFrom: v.validFrom, validTo: v.validTo }));
  const command: ImportPerDiemRates = {
    type: 'ImportPerDiemRates',
    data: { law: req.law, validFrom: req.validFrom, complete: req.complete, fileName: req.fileName, rows, problems, shippedVersions },
  };
  const result = await handleCommand(store, {
    streamId: rateTableStream(req.law),
    decider: perDiemRateTableDecider,
    command,
    context: { tenantId: PLATFORM_TENANT_ID, now: new Date().toISOString(), newId: randomUUID, actor: { system: 'cli' } },
    correlationId: randomUUID(),
  });
  const version = result.state.versions.get(req.validFrom);
  return {
    law: req.law,
    validFrom: req.validFrom,
    validTo: version?.validTo ?? null,
    complete: version?.complete ?? req.complete,
    rows: rows.length,
    recorded: result.events.length > 0,
    revision: result.revision,
  };
}

/** Reads the operator's file (UTF-8, at most MAX_RATE_FILE_BYTES) and imports it. */
export async function importPerDiemRateFile(
  store: EventStore,
  req: Omit<RateTableImport, 'text' | 'fileName'> & { file: string },
): Promise<RateTableImportResult> {
  let text: string;
  try {
    const size = (await stat(req.file)).size;
    if (size > MAX_RATE_FILE_BYTES)
      throw validationError({ file: [`${req.file} has ${size} bytes; a rate table has at most ${MAX_RATE_FILE_BYTES}.`] });
    text = await readFile(req.file, 'utf8');
  } catch (err) {
    if (err instanceof DomainError || !(err instanceof Error) || !('code' in err)) throw err;
    throw validationError({ file: [`Cannot read ${req.file}: ${String(err.code)}.`] });
  }
  const { file, ...rest } = req;
  return importPerDiemRateTable(store, { ...rest, fileName: basename(file), text });
}
