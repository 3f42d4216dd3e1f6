// An entry shows the current code and name of its vehicle and cost centers (reference-names.ts),
// so a change of one of those records changes what the entry reads as, without an event of the
// entry's own. An incremental sync (`updatedSince`, paged by `sync_seq`) must still see it (an
// ERP's outside try, session 25: 31 of its copied entries kept a cost center's old name). So
// each update or deletion of a vehicle or cost center moves every live entry of the tenant that
// names it: a new `sync_seq`, and `edited_at` (the list's change time) at least the change's time.
// The entry's own `editedAt`, its revision (ETag) and the event feed stay as they are: nothing
// of the entry was recorded.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../src/infra/database.js';
import { categoryOf, type RecordedEvent } from '../../src/eventstore/port.js';
import { COST_CENTER_CATEGORY } from '../../src/domain/cost-centers/index.js';
import { VEHICLE_CATEGORY } from '../../src/domain/vehicles/index.js';

interface ReferenceChange {
  tenant_id: string;
  kind: 'vehicle' | 'costCenter';
  id: string;
  at: string;
}

/** The updates and deletions among `events` of the records an entry names (creates name nobody yet). */
function referenceChanges(events: readonly RecordedEvent[]): ReferenceChange[] {
  const changes: ReferenceChange[] = [];
  for (const e of events) {
    const category = categoryOf(e.streamId);
    const kind = category === VEHICLE_CATEGORY ? 'vehicle' : category === COST_CENTER_CATEGORY ? 'costCenter' : undefined;
    if (kind === undefined || !/(Updated|Deleted)$/.test(e.type)) continue;
    const data = e.data as { vehicleId?: string; costCenterId?: string; at: string };
    const id = kind === 'vehicle' ? data.vehicleId : data.costCenterId;
    if (id !== undefined) changes.push({ tenant_id: e.metadata.tenantId, kind, id: id.toLowerCase(), at: data.at });
  }
  return changes;
}

/**
 * One statement for a batch's changes. An entry naming several changed records takes the latest
 * change time once (the grouped `hit`), never an earlier one.
 */
export async function touchEntriesNaming(trx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<void> {
  const changes = referenceChanges(events);
  if (changes.length === 0) return;
  await sql`
    with x as (
      select * from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as x(tenant_id uuid, kind text, id text, at timestamptz)
    ), hit as (
      select t.id, max(x.at) as at
      from rm_travel_entries t join x on t.tenant_id = x.tenant_id
      where t.deleted_at is null and (
        (x.kind = 'vehicle' and lower(t.doc->'entry'->>'vehicleId') = x.id)
        or (x.kind = 'costCenter' and exists (
          select 1 from jsonb_array_elements(t.doc->'entry'->'costCenterAllocations') a where lower(a->>'costCenterId') = x.id)))
      group by t.id
    )
    update rm_travel_entries t set edited_at = greatest(t.edited_at, hit.at), sync_seq = nextval('rm_sync_seq')
    from hit where t.id = hit.id`.execute(trx);
}
