// The engine's foreign per-diem rate tables: the shipped versions with the operator's imports (the
// PerDiemRatesImported events of the four `perDiemRateTable-{law}` streams) applied in order.
// Created once per process by the runtime; a read is four short streams, cached for maxAgeMs, so an
// import made by another process (the CLI on PostgreSQL) is seen within that age. The admin
// operation invalidates the cache of the process it runs in.
import { PER_DIEM_LAWS } from '../../domain/per-diems/law.js';
import { withImports, type ImportedRateTable, type RateTables } from '../../domain/per-diems/rate-table.js';
import { PLATFORM_TENANT_ID, rateTableStream, type PerDiemRatesImported } from '../../domain/per-diem-rates/index.js';
import type { EventStore } from '../../eventstore/port.js';
import { shippedRateVersions } from './shipped-rates.js';

/** The imported tables of every law, in stream order, each with its stream revision. */
export async function importedRateTables(store: EventStore): Promise<ImportedRateTable[]> {
  const streams = await Promise.all(PER_DIEM_LAWS.map((law) => store.readStream(rateTableStream(law))));
  const imports: ImportedRateTable[] = [];
  for (const events of streams) {
    for (const e of events) {
      // Only the platform's events, written through handleCommand, count.
      if (e.type !== 'PerDiemRatesImported' || e.metadata.tenantId !== PLATFORM_TENANT_ID) continue;
      const { law, validFrom, validTo, complete, rows } = (e as unknown as { data: PerDiemRatesImported['data'] }).data;
      imports.push({ law, validFrom, validTo, complete, rows, revision: e.revision });
    }
  }
  return imports;
}

export class PerDiemRateTables {
  private cached: { at: number; tables: Promise<RateTables> } | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly maxAgeMs = 1000,
  ) {}

  /** The tables as of at most maxAgeMs ago; concurrent callers share one read. */
  async current(): Promise<RateTables> {
    const now = Date.now();
    if (this.cached !== undefined && now - this.cached.at < this.maxAgeMs) return this.cached.tables;
    const entry = {
      at: now,
      tables: importedRateTables(this.store).then((imports) => withImports(shippedRateVersions(), imports)),
    };
    this.cached = entry;
    // A failed read is not kept: the next caller reads again.
    entry.tables.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return entry.tables;
  }

  /** The next current() reads the streams (after an import in this process). */
  invalidate(): void {
    this.cached = undefined;
  }
}
