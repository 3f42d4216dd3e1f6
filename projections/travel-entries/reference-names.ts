// The current code and name of what an entry references (issue 10): its vehicle and each
// allocation's cost center, read beside the entries by id within the tenant, so a renamed cost
// center shows its new name on every entry at once (nothing is copied into rm_travel_entries; the
// names are kept by the same projection, in rm_entry_reference_names: reference-changes.ts).
// A deleted or unknown reference (ids of entries from before reference checks) has no names.
import { sql } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { TravelEntry } from '../../src/domain/travel-entries/index.js';
import { isUuid } from '../document-queries.js';

export interface VehicleNames {
  registrationNumber: string;
  make: string | null;
  model: string | null;
}

export interface CostCenterNames {
  code: string;
  name: string;
}

export interface ReferenceNames {
  vehicles: ReadonlyMap<string, VehicleNames>;
  costCenters: ReadonlyMap<string, CostCenterNames>;
}

/** An entry as reads answer it: with the current names of its references. */
export type EntryWithNames = TravelEntry & { referenceNames: ReferenceNames };

interface NameRow {
  kind: 'vehicle' | 'costCenter';
  id: string;
  a: string;
  b: string | null;
  c: string | null;
}

/** One statement for any number of entries (a page of a list). */
export async function referenceNamesOf(db: Db, tenantId: string, entries: readonly TravelEntry[]): Promise<ReferenceNames> {
  const vehicleIds = [...new Set(entries.flatMap((e) => (e.vehicleId && isUuid(e.vehicleId) ? [e.vehicleId.toLowerCase()] : [])))];
  const costCenterIds = [
    ...new Set(entries.flatMap((e) => e.costCenterAllocations.map((a) => a.costCenterId.toLowerCase()).filter(isUuid))),
  ];
  return referenceNamesOfIds(db, tenantId, vehicleIds, costCenterIds);
}

/** The names of these vehicles and cost centers (lower-case UUIDs) of the tenant: one statement, none for no ids. */
export async function referenceNamesOfIds(
  db: Db,
  tenantId: string,
  vehicleIds: readonly string[],
  costCenterIds: readonly string[],
): Promise<ReferenceNames> {
  if (vehicleIds.length === 0 && costCenterIds.length === 0) return { vehicles: new Map(), costCenters: new Map() };
  // Kept by this projection (reference-changes.ts), so a name is as current as the entries' rows.
  const r = await sql<NameRow>`
    select kind, id::text as id, code as a, name as b, model as c from rm_entry_reference_names
    where tenant_id = ${tenantId}::uuid
      and ((kind = 'vehicle' and id = any(${vehicleIds}::uuid[])) or (kind = 'costCenter' and id = any(${costCenterIds}::uuid[])))`.execute(
    db,
  );
  const vehicles = new Map<string, VehicleNames>();
  const costCenters = new Map<string, CostCenterNames>();
  for (const row of r.rows) {
    if (row.kind === 'vehicle') vehicles.set(row.id, { registrationNumber: row.a, make: row.b, model: row.c });
    else costCenters.set(row.id, { code: row.a, name: row.b ?? '' });
  }
  return { vehicles, costCenters };
}

export async function withReferenceNames(db: Db, tenantId: string, entries: readonly TravelEntry[]): Promise<EntryWithNames[]> {
  const referenceNames = await referenceNamesOf(db, tenantId, entries);
  return entries.map((e) => ({ ...e, referenceNames }));
}
