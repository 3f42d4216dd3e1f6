// A lookup that finds nothing in a read model proves nothing while that read model is behind the
// log: an employee, department, vehicle or cost center created a moment ago is in the store but not
// yet in its table when its projector is slow or down (an operator's outside try, session 24: with
// the projector killed, an entry naming an employee just answered 201 got "No such employee", and
// that 400 was stored under the request's Idempotency-Key for a day). So a miss is confirmed: the
// lookup waits, bounded, until the projection has applied every event of its categories recorded so
// far, and asks again. Only a miss pays; a found record needs no wait (it exists, and at worst the
// row is a moment old, as for any read). When the projection does not catch up in time the answer
// is a 503 the client may retry, never a 4xx it would have to believe.
import { DomainError } from '../domain/errors.js';
import type { EventStore, FeedFilter, Position } from '../eventstore/port.js';

/** What the gate needs of the projection runner (projections/runner.ts). */
export interface ProjectionProgress {
  readonly projections: readonly { name: string; filter: FeedFilter }[];
  waitFor(name: string, position: Position, timeoutMs?: number): Promise<boolean>;
}

/**
 * The gate's 503: thrown while a command gathers its facts, before anything is appended, so it
 * wrote nothing (the Idempotency-Key plugin drops the request's claim for it, and only for it).
 */
export class ReadModelBehind extends DomainError {
  constructor() {
    super(
      'SERVICE_UNAVAILABLE',
      'The service is catching up after a delay and cannot tell yet whether a referenced record exists; retry shortly.',
    );
  }
}

export class ReadModelGate {
  constructor(
    private readonly store: EventStore,
    private readonly progress: ProjectionProgress,
    private readonly timeoutMs = 5000,
  ) {}

  /** Resolves once each projection has applied the log as it stands now; else SERVICE_UNAVAILABLE (503). */
  async settle(projections: readonly string[]): Promise<void> {
    const settled = await Promise.all(
      projections.map(async (name) => {
        const p = this.progress.projections.find((x) => x.name === name);
        if (p === undefined) throw new Error(`no projection named ${name}`);
        const head = await this.store.headPosition(p.filter);
        return head === undefined || this.progress.waitFor(name, head, this.timeoutMs);
      }),
    );
    if (settled.every(Boolean)) return;
    throw new ReadModelBehind();
  }

  /**
   * `lookUp` once, and when `missing` says its answer lacks something, once more after the
   * projections it reads have caught up: the second answer is the one to believe.
   */
  async confirmed<T>(projections: readonly string[], lookUp: () => Promise<T>, missing: (found: T) => boolean): Promise<T> {
    const found = await lookUp();
    if (!missing(found)) return found;
    await this.settle(projections);
    return lookUp();
  }
}
