// The webhook-safe summary of a resource as of one event: the stream is folded with the domain's
// own decider up to that event's revision, so the payload describes the resource at the moment the
// event was raised, never its current state (which may be several events further along by the time
// the projector gets here, or when a delivery is retried).
//
// The projector sees a stream's events in order, so it keeps the folded state of recently seen
// streams: the next event of a stream is one evolve step, not a read of the whole stream. A cached
// state is used only when it is exactly one revision behind the event (a redelivered or out-of-order
// event reads the stream up to its revision instead), so the cache can never change a payload.
import type { DomainEvent } from '../domain/decider.js';
import {
  employeeDecider,
  toEmployeeWebhookDto,
  type EmployeeEvent,
  type EmployeeState,
  type EmployeeWebhookDto,
} from '../domain/employees/index.js';
import {
  toTravelEntryWebhookDto,
  travelEntryDecider,
  type TravelEntryEvent,
  type TravelEntryState,
  type TravelEntryWebhookDto,
} from '../domain/travel-entries/index.js';
import { categoryOf, type EventStore, type RecordedEvent } from '../eventstore/port.js';

export type ResourceSummary = TravelEntryWebhookDto | EmployeeWebhookDto;

type Folded = { kind: 'travelEntry'; state: TravelEntryState } | { kind: 'employee'; state: EmployeeState };

const asDomain = (e: RecordedEvent): DomainEvent => ({ type: e.type, data: e.data });

function foldFrom(kind: Folded['kind'], start: Folded | undefined, events: DomainEvent[]): Folded {
  if (kind === 'travelEntry') {
    const initial = start?.kind === 'travelEntry' ? start.state : travelEntryDecider.initialState();
    return { kind, state: (events as TravelEntryEvent[]).reduce(travelEntryDecider.evolve, initial) };
  }
  const initial = start?.kind === 'employee' ? start.state : employeeDecider.initialState();
  return { kind, state: (events as EmployeeEvent[]).reduce(employeeDecider.evolve, initial) };
}

function summaryOf(f: Folded): ResourceSummary | undefined {
  if (f.kind === 'travelEntry') return f.state.kind === 'Existing' ? toTravelEntryWebhookDto(f.state.entry) : undefined;
  return f.state.kind === 'Registered' ? toEmployeeWebhookDto(f.state.employee) : undefined;
}

export class ResourceSnapshots {
  private readonly cache = new Map<string, { revision: number; folded: Folded }>();

  constructor(
    private readonly store: EventStore,
    private readonly maxStreams = 5000,
  ) {}

  /** Undefined when the stream does not hold a resource at that revision (a stray event), or is not a catalog stream. */
  async summaryAt(event: RecordedEvent): Promise<ResourceSummary | undefined> {
    const category = categoryOf(event.streamId);
    if (category !== 'travelEntry' && category !== 'employee') return undefined;
    const cached = this.cache.get(event.streamId);
    let folded: Folded;
    if (event.revision === 0) folded = foldFrom(category, undefined, [asDomain(event)]);
    else if (cached && cached.revision === event.revision - 1) folded = foldFrom(category, cached.folded, [asDomain(event)]);
    else
      folded = foldFrom(category, undefined, (await this.store.readStream(event.streamId, { toRevision: event.revision })).map(asDomain));
    this.remember(event.streamId, event.revision, folded);
    return summaryOf(folded);
  }

  private remember(streamId: string, revision: number, folded: Folded): void {
    this.cache.delete(streamId); // re-insert: Map order is the recency order
    this.cache.set(streamId, { revision, folded });
    if (this.cache.size > this.maxStreams) this.cache.delete(this.cache.keys().next().value!);
  }
}

/** Without a cache: one read of the stream (tests and one-off callers). */
export async function resourceSummaryAt(store: EventStore, event: RecordedEvent): Promise<ResourceSummary | undefined> {
  return new ResourceSnapshots(store, 0).summaryAt(event);
}
