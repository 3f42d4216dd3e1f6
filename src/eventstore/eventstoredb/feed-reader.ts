// Reading the global feed forwards with a server-side filter. The 6.2.1 client's readAll takes no
// filter (the setting arrived with the renamed @kurrent client), but a filtered subscription to
// $all does, and since server 23.10 it marks the end of history with a caught-up message. So every
// forward read of the feed (readAll pages, countAfter, catch-up subscriptions) is a filtered
// subscription read up to that mark or up to what the caller wants, and the server skips the
// events that do not match instead of sending them.
//
// The client emits caught-up as an event beside the item stream, while events received before it
// may still sit in the stream's buffer. The reader counts the items buffered at that moment and
// reports 'live' once exactly those have been read, so 'live' sits where the server put it.
import { START, type AllStreamResolvedEvent, type AllStreamSubscription, type EventStoreDBClient } from '@eventstore/db-client';
import { comparePositions, type FeedFilter, type Position, type RecordedEvent } from '../port.js';
import { toPosition, toRecorded } from './events.js';
import { planFilter, type FilterPlan } from './filter.js';
import { Puller } from './pull.js';

export type FeedItem = { event: RecordedEvent } | 'live';

export class FeedReader {
  private readonly plan: FilterPlan;
  private readonly sub: AllStreamSubscription;
  private readonly puller: Puller<AllStreamResolvedEvent>;
  /** Items still to read before the caught-up mark; undefined while no mark is pending. */
  private untilLive: number | undefined;
  private checkpoint: Position | undefined;
  private checkpointAtLive: Position | undefined;

  constructor(
    client: EventStoreDBClient,
    private readonly after: Position | undefined,
    filter: FeedFilter | undefined,
    opts: { signal?: AbortSignal; bufferSize?: number } = {},
  ) {
    this.plan = planFilter(filter, (p) => {
      this.checkpoint = toPosition(p);
    });
    // fromPosition is exclusive on the server; next() also skips `after` itself, to be safe.
    this.sub = client.subscribeToAll(
      { fromPosition: after ?? START, filter: this.plan.server },
      { highWaterMark: Math.max(16, opts.bufferSize ?? 16) },
    );
    this.puller = new Puller(this.sub, opts.signal);
    this.sub.on('caughtUp', this.onCaughtUp);
  }

  private readonly onCaughtUp = (): void => {
    this.untilLive = this.puller.buffered;
    // Server checkpoints received so far lie at or before the mark; later ones may pass live
    // events not read yet, so only these may stand for "scanned up to here".
    this.checkpointAtLive = this.checkpoint;
    this.puller.poke();
  };

  /** The next item already received, or undefined when none is. Throws when the subscription failed. */
  next(): FeedItem | undefined {
    for (;;) {
      if (this.untilLive === 0) {
        this.untilLive = undefined;
        return 'live';
      }
      const resolved = this.puller.tryRead();
      if (resolved === undefined) return undefined;
      if (this.untilLive !== undefined) this.untilLive--;
      const e = resolved.event;
      if (!e || (this.after && comparePositions(e.position, this.after) <= 0) || !this.plan.matches(e)) continue;
      return { event: toRecorded(e) };
    }
  }

  /** The last server checkpoint before the latest caught-up mark: the filtered scan passed it. */
  get scannedTo(): Position | undefined {
    return this.checkpointAtLive;
  }

  /** The server ended the subscription and everything it sent was read. */
  get ended(): boolean {
    return this.puller.finished && this.untilLive === undefined;
  }

  /** Resolves once next() may have something new (or the subscription ended, failed or was aborted). */
  async wait(): Promise<void> {
    if (this.untilLive === 0) return;
    await this.puller.changed();
  }

  async close(): Promise<void> {
    this.sub.off('caughtUp', this.onCaughtUp);
    this.puller.dispose();
    await this.sub.unsubscribe().catch(() => undefined);
  }
}
