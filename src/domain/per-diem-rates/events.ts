// The foreign per-diem rate tables an operator imported (`npm run cli -- per-diem-rates import`):
// one stream per law (`perDiemRateTable-HR`), one event per imported table version. The engine's
// tables are the shipped rows with these applied in order (src/domain/per-diems/rate-table.ts,
// withImports), so every calculation can name the revision it used. Type strings never change.
import type { DomainEvent } from '../decider.js';
import type { PerDiemLaw } from '../per-diems/law.js';

export const PER_DIEM_RATE_TABLE_CATEGORY = 'perDiemRateTable';
export const rateTableStream = (law: PerDiemLaw): string => `${PER_DIEM_RATE_TABLE_CATEGORY}-${law}`;

/**
 * The tables are the platform's, not a tenant's: their events carry this tenant id in their
 * metadata (no tenant's stream, projection or webhook ever reads the category).
 */
export const PLATFORM_TENANT_ID = '00000000-0000-0000-0000-000000000000';

export interface ImportedRateRow {
  countryCode: string;
  countryName: string;
  rate: string;
  currency: string;
  source: string;
}

export type PerDiemRatesImported = DomainEvent<
  'PerDiemRatesImported',
  {
    law: PerDiemLaw;
    validFrom: string;
    validTo: string | null;
    /** The rows are the whole official table: its `*` row (countries not listed) applies. */
    complete: boolean;
    rows: ImportedRateRow[];
    /** The operator's file name, for the record. */
    fileName: string;
    at: string;
  }
>;

export type PerDiemRateTableEvent = PerDiemRatesImported;
