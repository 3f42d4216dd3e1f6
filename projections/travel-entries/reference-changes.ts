// An entry shows the current code and name of its vehicle and cost centers (reference-names.ts),
// so a change of one of those records changes what the entry reads as, without an event of the
// entry's own. An incremental sync (`updatedSince`, paged by `sync_seq`) must still see it (an
// ERP's outside try, session 25: 31 of its copied entries kept a cost center's old name). So the
// travel-entries projection keeps those codes and names itself (rm_entry_reference_names), and in
// the same transaction moves every live entry of the tenant that names an updated or deleted one:
// a new `sync_seq`, and `edited_at` (the list's change time) at least the change's time. One
// transaction, so an entry never reaches a sync before its new name can be read (the names were
// read from the vehicles' and cost centers' own tables before, committed by other projections).
// The entry's own `editedAt`, its revision (ETag) and the event feed stay as they are: nothing of
// the entry was recorded.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../src/infra/database.js';
import { categoryOf, type RecordedEvent } from '../../src/eventstore/port.js';
import { COST_CENTER_CATEGORY } from '../../src/domain/cost-centers/index.js';
import { VEHICLE_CATEGORY } from '../../src/domain/vehicles/index.js';

type Kind = 'vehicle' | 'costCenter';

interface Names {
  code: string;
  name: string | null;
  model: string | null;
}

/** A record's last state in a batch: its names (null once deleted), and whether entries must move. */
interface Latest {
  tenant_id: string;
  kind: Kind;
  id: string;
  names: Names | null;
  at: string;
  moved: boolean;
}

interface ReferenceEventData {
  vehicleId?: string;
  costCenterId?: string;
  at: string;
  record?: { registrationNumber?: string; make?: string | null; model?: string | null; code?: string; name?: string };
}

function namesOf(kind: Kind, record: NonNullable<ReferenceEventData['record']>): Names {
  return kind === 'vehicle'
    ? { code: record.registrationNumber ?? '', name: record.make ?? null, model: record.model ?? null }
    : { code: record.code ?? '', name: record.name ?? null, model: null };
}

/** The last state of each vehicle or cost center the batch's events touch, in log order. */
function latestOf(events: readonly RecordedEvent[]): Latest[] {
  const latest = new Map<string, Latest>();
  for (const e of events) {
    const category = categoryOf(e.streamId);
    const kind: Kind | undefined = category === VEHICLE_CATEGORY ? 'vehicle' : category === COST_CENTER_CATEGORY ? 'costCenter' : undefined;
    if (kind === undefined) continue;
    const data = e.data as ReferenceEventData;
    const id = (kind === 'vehicle' ? data.vehicleId : data.costCenterId)?.toLowerCase();
    if (id === undefined) continue;
    const key = `${e.metadata.tenantId}/${kind}/${id}`;
    const deleted = e.type.endsWith('Deleted');
    latest.set(key, {
      tenant_id: e.metadata.tenantId,
      kind,
      id,
      names: deleted || data.record === undefined ? null : namesOf(kind, data.record),
      at: data.at,
      // A create names nobody yet; an update or deletion may change what entries show.
      moved: (latest.get(key)?.moved ?? false) || deleted || e.type.endsWith('Updated'),
    });
  }
  return [...latest.values()];
}

/** The names kept, then the entries naming a changed record moved: three statements at most per batch. */
export async function applyReferenceEvents(trx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<void> {
  const latest = latestOf(events);
  if (latest.length === 0) return;
  const kept = latest.filter((x) => x.names !== null).map((x) => ({ tenant_id: x.tenant_id, kind: x.kind, id: x.id, ...x.names! }));
  if (kept.length > 0) {
    await sql`
      insert into rm_entry_reference_names (tenant_id, kind, id, code, name, model)
      select tenant_id, kind, id, code, name, model
      from jsonb_to_recordset(${JSON.stringify(kept)}::jsonb) as x(tenant_id uuid, kind text, id uuid, code text, name text, model text)
      on conflict (tenant_id, kind, id) do update set code = excluded.code, name = excluded.name, model = excluded.model`.execute(trx);
  }
  const gone = latest.filter((x) => x.names === null).map((x) => ({ tenant_id: x.tenant_id, kind: x.kind, id: x.id }));
  if (gone.length > 0) {
    await sql`
      delete from rm_entry_reference_names n
      using jsonb_to_recordset(${JSON.stringify(gone)}::jsonb) as x(tenant_id uuid, kind text, id uuid)
      where n.tenant_id = x.tenant_id and n.kind = x.kind and n.id = x.id`.execute(trx);
  }
  const moved = latest.filter((x) => x.moved).map((x) => ({ tenant_id: x.tenant_id, kind: x.kind, id: x.id, at: x.at }));
  if (moved.length > 0) await moveEntriesNaming(trx, moved);
}

/**
 * Equality joins only, so each tenant's entries are read once per batch whatever the number of
 * changes (a review measured an OR of conditions at 25 s for 100 changes over 100,000 entries). An
 * entry naming several changed records takes the latest change time once.
 */
async function moveEntriesNaming(trx: Transaction<Database>, moved: readonly Omit<Latest, 'names' | 'moved'>[]): Promise<void> {
  await sql`
    with x as (
      select * from jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) as x(tenant_id uuid, kind text, id text, at timestamptz)
    ), allocations as materialized (
      -- Each allocation of the tenants' live entries once, so the join below is by equality on both
      -- keys (not each change against each entry).
      select t.id, t.tenant_id, lower(a->>'costCenterId') as cost_center_id
      from rm_travel_entries t cross join lateral jsonb_array_elements(t.doc->'entry'->'costCenterAllocations') a
      where t.deleted_at is null and t.tenant_id in (select tenant_id from x where kind = 'costCenter')
    ), hit as (
      select t.id, x.at from rm_travel_entries t
      join x on x.kind = 'vehicle' and x.tenant_id = t.tenant_id and x.id = lower(t.doc->'entry'->>'vehicleId')
      where t.deleted_at is null
      union all
      select al.id, x.at from allocations al
      join x on x.kind = 'costCenter' and x.tenant_id = al.tenant_id and x.id = al.cost_center_id
    ), latest as (
      select id, max(at) as at from hit group by id
    )
    update rm_travel_entries t set edited_at = greatest(t.edited_at, latest.at), sync_seq = nextval('rm_sync_seq')
    from latest where t.id = latest.id`.execute(trx);
}
