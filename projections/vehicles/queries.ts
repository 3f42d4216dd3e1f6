// Reads of the vehicles read model, always scoped to one tenant.
import { sql } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { Vehicle, VehicleState } from '../../src/domain/vehicles/index.js';
import { activeDocuments, getDocument, listDocuments, listItemOf, type DocumentListQuery, type Tombstone } from '../document-queries.js';
import type { SeekPage } from '../keyset.js';

const TABLE = 'rm_vehicles';
const vehicleOf = (s: VehicleState): Vehicle[] => (s.kind === 'Existing' ? [s.vehicle] : []);

export async function getVehicle(db: Db, tenantId: string, id: string): Promise<{ vehicle: Vehicle; revision: number } | undefined> {
  const row = await getDocument<VehicleState>(db, TABLE, tenantId, id);
  const [vehicle] = row ? vehicleOf(row.doc) : [];
  return row && vehicle ? { vehicle, revision: row.revision } : undefined;
}

export async function listVehicles(db: Db, tenantId: string, q: DocumentListQuery): Promise<SeekPage<Vehicle | Tombstone>> {
  const page = await listDocuments<VehicleState>(db, TABLE, tenantId, q);
  return {
    ...page,
    rows: page.rows.flatMap((s) => listItemOf(s.kind === 'Absent' ? s : { ...s, record: s.vehicle })),
  };
}

/** The active vehicles of the tenant among `ids`, by (lower-case) id. */
export async function activeVehicles(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, Vehicle>> {
  const docs = await activeDocuments<VehicleState>(db, TABLE, tenantId, ids);
  return new Map([...docs].flatMap(([id, s]) => vehicleOf(s).map((v) => [id, v] as const)));
}

/** What still names the vehicle: travel entries (vehicleId compared without case, as departmentReferences says). */
export async function vehicleReferences(db: Db, tenantId: string, id: string): Promise<Record<string, number>> {
  const r = await sql<{ n: number }>`select count(*)::int as n from rm_travel_entries where tenant_id = ${tenantId}::uuid
    and doc->>'kind' = 'Existing' and lower(doc->'entry'->>'vehicleId') = lower(${id})`.execute(db);
  return { travelEntries: Number(r.rows[0]?.n ?? 0) };
}
