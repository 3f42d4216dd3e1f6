// A resource as it was: its stream folded up to a revision, or up to the last event recorded at or
// before an instant, by the decider's own evolve (the function the read model folds with), so the
// answer is what the read model held at that point.
import type { Decider, DomainEvent } from '../../domain/decider.js';
import type { EventStore, RecordedEvent } from '../../eventstore/port.js';

/** Events read at a time for an as-of-instant read (a third of a 200-event entry's stream). */
const AS_OF_CHUNK = 64;

/** A revision (0-based), or an instant compared with each event's recordedAt. */
export type PointInStream = { revision: number } | { asOf: Date };

export interface StateAt<S> {
  state: S;
  /** The revision of the last event folded. */
  revision: number;
  /** When the store recorded that event. */
  recordedAt: Date;
}

type Folder<S, E extends DomainEvent> = Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>;

/** One tenant's stream and the decider that folds it. */
interface StreamOf<S, E extends DomainEvent> {
  store: EventStore;
  streamId: string;
  decider: Folder<S, E>;
  tenantId: string;
}

/**
 * The state at the point; undefined before the stream's first event, for a revision past its end,
 * and for a stream that does not exist or belongs to another tenant.
 */
export function stateAt<S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Folder<S, E>,
  tenantId: string,
  point: PointInStream,
): Promise<StateAt<S> | undefined> {
  const stream = { store, streamId, decider, tenantId };
  return 'revision' in point ? stateAtRevision(stream, point.revision) : stateAtInstant(stream, point.asOf);
}

/** A revision bounds the read: one read of the events up to it. */
async function stateAtRevision<S, E extends DomainEvent>(s: StreamOf<S, E>, revision: number): Promise<StateAt<S> | undefined> {
  const events = await s.store.readStream(s.streamId, { toRevision: revision });
  if (!isTenantsStream(events, s.tenantId) || events[events.length - 1]!.revision !== revision) return undefined;
  return { state: fold(s.decider, s.decider.initialState(), events), revision, recordedAt: events[events.length - 1]!.recordedAt };
}

/**
 * An instant is found by reading in chunks up to the first event recorded after it (recorded
 * times follow the stream's order), not the whole stream.
 */
async function stateAtInstant<S, E extends DomainEvent>(s: StreamOf<S, E>, asOf: Date): Promise<StateAt<S> | undefined> {
  const limit = asOf.getTime();
  let state = s.decider.initialState();
  let last: RecordedEvent | undefined;
  for (let from = 0; ; from += AS_OF_CHUNK) {
    const events = await s.store.readStream(s.streamId, { fromRevision: from, maxCount: AS_OF_CHUNK });
    if (from === 0 && !isTenantsStream(events, s.tenantId)) return undefined;
    const recordedBy = events.findIndex((e) => e.recordedAt.getTime() > limit);
    const folded = recordedBy < 0 ? events : events.slice(0, recordedBy);
    state = fold(s.decider, state, folded);
    if (folded.length > 0) last = folded[folded.length - 1]!;
    if (recordedBy >= 0 || events.length < AS_OF_CHUNK) return last && { state, revision: last.revision, recordedAt: last.recordedAt };
  }
}

/** A stream is one tenant's: its first event tells whose it is (none: no stream). */
function isTenantsStream(events: readonly RecordedEvent[], tenantId: string): boolean {
  return events.length > 0 && events[0]!.metadata.tenantId === tenantId;
}

function fold<S, E extends DomainEvent>(decider: Folder<S, E>, state: S, events: readonly RecordedEvent[]): S {
  for (const e of events) state = decider.evolve(state, { type: e.type, data: e.data } as E);
  return state;
}
