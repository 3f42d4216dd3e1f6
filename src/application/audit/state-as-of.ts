// A resource as it was: its stream folded up to a revision, or up to the last event recorded at or
// before an instant, by the decider's own evolve (the function the read model folds with), so the
// answer is what the read model held at that point.
import type { Decider, DomainEvent } from '../../domain/decider.js';
import type { EventStore } from '../../eventstore/port.js';

/** Events read at a time for an as-of-instant read (a third of a 200-event entry's stream). */
const AS_OF_CHUNK = 64;

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
  let state = decider.initialState();
  let revision = -1;
  // A revision bounds the read; an instant is found by reading in chunks up to the first event
  // recorded after it (recorded times follow the stream's order), not the whole stream.
  for (let from = 0; ; from += AS_OF_CHUNK) {
    const events = await store.readStream(
      streamId,
      'revision' in point ? { toRevision: point.revision } : { fromRevision: from, maxCount: AS_OF_CHUNK },
    );
    if (from === 0 && (events.length === 0 || events[0]!.metadata.tenantId !== tenantId)) return undefined;
    if ('revision' in point && events[events.length - 1]!.revision !== point.revision) return undefined;
    for (const e of events) {
      if ('asOf' in point && e.recordedAt.getTime() > point.asOf.getTime()) return revision < 0 ? undefined : { state, revision };
      state = decider.evolve(state, { type: e.type, data: e.data } as E);
      revision = e.revision;
    }
    if ('revision' in point || events.length < AS_OF_CHUNK) return revision < 0 ? undefined : { state, revision };
  }
}
