// The rate-table stream's state: per imported validFrom, the version as the imports left it (rows
// merged country by country, the last validTo, complete once any import said so), the same
// rule withImports (../per-diems/rate-table.ts) applies to the engine's tables.
import type { ImportedRateRow, PerDiemRateTableEvent } from './events.js';

export interface ImportedVersion {
  validFrom: string;
  validTo: string | null;
  complete: boolean;
  rows: ReadonlyMap<string, ImportedRateRow>;
}

export interface PerDiemRateTableState {
  /** Keyed by validFrom. */
  versions: ReadonlyMap<string, ImportedVersion>;
}

export const initialState = (): PerDiemRateTableState => ({ versions: new Map() });

export function evolve(state: PerDiemRateTableState, event: PerDiemRateTableEvent): PerDiemRateTableState {
  switch (event.type) {
    case 'PerDiemRatesImported': {
      const { validFrom, validTo, complete, rows } = event.data;
      const before = state.versions.get(validFrom);
      const merged = new Map(before?.rows ?? []);
      for (const row of rows) merged.set(row.countryCode, row);
      const versions = new Map(state.versions);
      versions.set(validFrom, { validFrom, validTo, complete: complete || (before?.complete ?? false), rows: merged });
      return { versions };
    }
    default: {
      const unknown: never = event.type;
      return unknown;
    }
  }
}
