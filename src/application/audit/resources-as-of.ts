// The resources with a state-as-of read: a travel entry and an employee, each as its GET-one route
// presents it. A point where the resource did not exist (before its first event, after a deletion)
// is no resource.
import { employeeDecider, streamName as employeeStream, type Employee } from '../../domain/employees/index.js';
import { streamName as entryStream, travelEntryDecider, type TravelEntry } from '../../domain/travel-entries/index.js';
import type { EventStore } from '../../eventstore/port.js';
import { stateAt, type PointInStream } from './state-as-of.js';

export async function travelEntryAt(
  store: EventStore,
  tenantId: string,
  id: string,
  point: PointInStream,
): Promise<{ entry: TravelEntry; revision: number; recordedAt: Date } | undefined> {
  const at = await stateAt(store, entryStream(id), travelEntryDecider, tenantId, point);
  return at && at.state.kind === 'Existing' ? { entry: at.state.entry, revision: at.revision, recordedAt: at.recordedAt } : undefined;
}

export async function employeeAt(
  store: EventStore,
  tenantId: string,
  id: string,
  point: PointInStream,
): Promise<{ employee: Employee; revision: number; recordedAt: Date } | undefined> {
  const at = await stateAt(store, employeeStream(id), employeeDecider, tenantId, point);
  return at && at.state.kind === 'Registered'
    ? { employee: at.state.employee, revision: at.revision, recordedAt: at.recordedAt }
    : undefined;
}
