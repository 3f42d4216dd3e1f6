// The webhook-safe summary of a resource as of one event: the stream is folded with the domain's
// own decider up to that event's revision, so the payload describes the resource at the moment the
// event was raised, never its current state (which may be several events further along by the time
// the projector gets here, or when a delivery is retried).
//
// The projector sees a stream's events in order, so it keeps the folded state of recently seen
// streams: the next event of a stream is one evolve step, not a read of the whole stream. A cached
// state is used only when it is exactly one revision behind the event (a redelivered or out-of-order
// event reads the stream up to its revision instead), so the cache can never change a payload.
//
// Which decider folds a stream, and what its summary is, comes from the feature that declares the
// stream's category (src/features/<feature>.ts, `webhooks`); this file names no feature.
import type { DomainEvent } from '../../domain/decider.js';
import { categoryOf, type EventStore, type RecordedEvent } from '../../eventstore/port.js';
import type { WebhookSource } from '../../features/feature.js';
import { webhookSourceOf } from './mapping.js';
import type { ResourceSummary } from './envelope.js';

// Declared beside the envelope (which carries it), so the envelope imports no fold and no registry.
export type { ResourceSummary };

const asDomain = (e: RecordedEvent): DomainEvent => ({ type: e.type, data: e.data });

const fold = (source: WebhookSource, start: unknown, events: DomainEvent[]): unknown => events.reduce(source.decider.evolve, start);

export class ResourceSnapshots {
  private readonly cache = new Map<string, { revision: number; state: unknown }>();

  constructor(
    private readonly store: EventStore,
    private readonly maxStreams = 5000,
  ) {}

  /** Undefined when the stream does not hold a resource at that revision (a stray event), or is not a catalog stream. */
  async summaryAt(event: RecordedEvent): Promise<ResourceSummary | undefined> {
    const source = webhookSourceOf(categoryOf(event.streamId));
    if (!source) return undefined;
    const cached = this.cache.get(event.streamId);
    let state: unknown;
    if (event.revision === 0) state = fold(source, source.decider.initialState(), [asDomain(event)]);
    else if (cached && cached.revision === event.revision - 1) state = fold(source, cached.state, [asDomain(event)]);
    else {
      const history = await this.store.readStream(event.streamId, { toRevision: event.revision });
      state = fold(source, source.decider.initialState(), history.map(asDomain));
    }
    this.remember(event.streamId, event.revision, state);
    return source.summaryOf(state);
  }

  private remember(streamId: string, revision: number, state: unknown): void {
    this.cache.delete(streamId); // re-insert: Map order is the recency order
    this.cache.set(streamId, { revision, state });
    if (this.cache.size > this.maxStreams) this.cache.delete(this.cache.keys().next().value!);
  }
}

/** Without a cache: one read of the stream (tests and one-off callers). */
export async function resourceSummaryAt(store: EventStore, event: RecordedEvent): Promise<ResourceSummary | undefined> {
  return new ResourceSnapshots(store, 0).summaryAt(event);
}
