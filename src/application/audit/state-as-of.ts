// A resource as it was: its stream folded up to a revision, or up to the last event recorded at or
// before an instant, by the decider's own evolve (the function the read model folds with), so the
// answer is what the read model held at that point.
import type { Decider, DomainEvent } from '../../domain/decider.js';
import type { EventStore } from '../../eventstore/port.js';

/** A revision (0-based), or an instant compared with each event's recordedAt. */
export type PointInStream = { revision: number } | { asOf: Date };

export interface StateAt<S> {
  state: S;
  /** The revision of the last event folded. */
  revision: number;
}

/**
 * The state at the point; undefined before the stream's first event, for a revision past its end,
 * and for a stream that does not exist or belongs to another tenant.
 */
export async function stateAt<S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>,
  tenantId: string,
  point: PointInStream,
): Promise<StateAt<S> | undefined> {
  const events = await store.readStream(streamId, 'revision' in point ? { toRevision: point.revision } : {});
  if (events.length === 0 || events[0]!.metadata.tenantId !== tenantId) return undefined;
  if ('revision' in point && events[events.length - 1]!.revision !== point.revision) return undefined;
  let state = decider.initialState();
  let revision = -1;
  for (const e of events) {
    // Recorded times follow the stream's order; the first event after the instant ends the fold.
    if ('asOf' in point && e.recordedAt.getTime() > point.asOf.getTime()) break;
    state = decider.evolve(state, { type: e.type, data: e.data } as E);
    revision = e.revision;
  }
  return revision < 0 ? undefined : { state, revision };
}
