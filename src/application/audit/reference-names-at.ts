// The names an entry's references had at a point in time: its vehicle's registration number, make
// and model and each allocation's cost-center code and name, folded from their own streams up to
// the instant. A revision-pinned read shows the names as they were when that revision was recorded,
// so the answer never changes (it is served as immutable) however the vehicle or cost center is
// renamed later; the current read shows today's names (projections/travel-entries/reference-names.ts).
// A reference deleted by then, or unknown, has no names, as on the current read.
import { costCenterDecider, streamName as costCenterStream } from '../../domain/cost-centers/index.js';
import type { TravelEntry } from '../../domain/travel-entries/index.js';
import { streamName as vehicleStream, vehicleDecider } from '../../domain/vehicles/index.js';
import type { EventStore } from '../../eventstore/port.js';
import type { CostCenterNames, ReferenceNames, VehicleNames } from '../../../projections/travel-entries/reference-names.js';
import { stateAt } from './state-as-of.js';
import { isUuid } from '../../../projections/document-queries.js';
import { eachLimited } from '../each-limited.js';

/** Cost-center streams read at once for one answer (the pool serves every other request too). */
const NAME_READS_AT_ONCE = 4;

export async function referenceNamesAt(store: EventStore, tenantId: string, entry: TravelEntry, at: Date): Promise<ReferenceNames> {
  const point = { asOf: at };
  const vehicleIds = entry.vehicleId && isUuid(entry.vehicleId) ? [entry.vehicleId.toLowerCase()] : [];
  const costCenterIds = [...new Set(entry.costCenterAllocations.map((a) => a.costCenterId.toLowerCase()))].filter(isUuid);
  // An entry may name up to a hundred cost centers: their streams are read a few at a time.
  const [vehicles, costCenters] = await Promise.all([
    eachLimited(
      vehicleIds,
      async (id): Promise<[string, VehicleNames] | undefined> => {
        const s = await stateAt(store, vehicleStream(id), vehicleDecider, tenantId, point);
        if (s?.state.kind !== 'Existing') return undefined;
        const v = s.state.vehicle;
        return [id, { registrationNumber: v.registrationNumber, make: v.make ?? null, model: v.model ?? null }];
      },
      1,
    ),
    eachLimited(
      costCenterIds,
      async (id): Promise<[string, CostCenterNames] | undefined> => {
        const s = await stateAt(store, costCenterStream(id), costCenterDecider, tenantId, point);
        if (s?.state.kind !== 'Existing') return undefined;
        return [id, { code: s.state.costCenter.code, name: s.state.costCenter.name ?? '' }];
      },
      NAME_READS_AT_ONCE,
    ),
  ]);
  const present = <T>(pairs: readonly ([string, T] | undefined)[]) => new Map(pairs.filter((p): p is [string, T] => p !== undefined));
  return { vehicles: present(vehicles), costCenters: present(costCenters) };
}
