// Reads of the cost-centers read model, always scoped to one tenant.
import { sql } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { CostCenter, CostCenterState } from '../../src/domain/cost-centers/index.js';
import { activeDocuments, getDocument, listDocuments, listItemOf, type DocumentListQuery, type Tombstone } from '../document-queries.js';
import type { SeekPage } from '../keyset.js';

const TABLE = 'rm_cost_centers';
const costCenterOf = (s: CostCenterState): CostCenter[] => (s.kind === 'Existing' ? [s.costCenter] : []);

export async function getCostCenter(
  db: Db,
  tenantId: string,
  id: string,
): Promise<{ costCenter: CostCenter; revision: number } | undefined> {
  const row = await getDocument<CostCenterState>(db, TABLE, tenantId, id);
  const [costCenter] = row ? costCenterOf(row.doc) : [];
  return row && costCenter ? { costCenter, revision: row.revision } : undefined;
}

export async function listCostCenters(db: Db, tenantId: string, q: DocumentListQuery): Promise<SeekPage<CostCenter | Tombstone>> {
  const page = await listDocuments<CostCenterState>(db, TABLE, tenantId, q);
  return {
    ...page,
    rows: page.rows.flatMap((s) => listItemOf(s.kind === 'Absent' ? s : { ...s, record: s.costCenter })),
  };
}

/** The active cost centers of the tenant among `ids` (archived ones too with includeArchived), by (lower-case) id. */
export async function activeCostCenters(
  db: Db,
  tenantId: string,
  ids: readonly string[],
  o: { includeArchived?: boolean } = {},
): Promise<Map<string, CostCenter>> {
  const docs = await activeDocuments<CostCenterState>(db, TABLE, tenantId, ids, o);
  return new Map([...docs].flatMap(([id, s]) => costCenterOf(s).map((c) => [id, c] as const)));
}

/**
 * What still names the cost center: entries allocating to it (costCenterId compared without case, as
 * departmentReferences says), departments defaulting to it.
 */
export async function costCenterReferences(db: Db, tenantId: string, id: string): Promise<Record<string, number>> {
  const [entries, departments] = await Promise.all([
    sql<{ n: number }>`select count(*)::int as n from rm_travel_entries where tenant_id = ${tenantId}::uuid
      and doc->>'kind' = 'Existing'
      and exists (select 1 from jsonb_array_elements(doc->'entry'->'costCenterAllocations') a
                  where lower(a->>'costCenterId') = lower(${id}))`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from rm_departments where tenant_id = ${tenantId}::uuid
      and default_cost_center_id = ${id}::uuid and not is_deleted`.execute(db),
  ]);
  return { travelEntries: Number(entries.rows[0]?.n ?? 0), departments: Number(departments.rows[0]?.n ?? 0) };
}
