// Reading the global feed forwards with a server-side filter. The 6.2.1 client's readAll takes no
// filter (the setting arrived with the renamed @kurrent client), but a filtered subscription to
// $all does, and since server 23.10 it marks the end of history with a caught-up message. So every
// forward read of the feed (readAll pages, countAfter, catch-up subscriptions) is a filtered
// subscription read up to that mark or up to what the caller wants, and the server skips the
// events that do not match instead of sending them.
//
// The client emits caught-up as an event beside the item stream, while events received before it
// may still sit in the stream's buffer. The reader notes how many items will have been read when
// the mark comes due and reports 'live' exactly there, so 'live' sits where the server put it.
// Marks queue up: a fell-behind and a new caught-up arriving before the first mark was read each
// keep their own 'live' (the port promises onCaughtUp every time the live end is reached).
//
// Server checkpoints are trusted only below 2^63 and at or before the head of $all read before the
// subscription (server-checks.ts): some server versions send checkpoints past unread events.
import { START, type AllStreamResolvedEvent, type AllStreamSubscription, type EventStoreDBClient } from '@eventstore/db-client';
import { comparePositions, type FeedFilter, type Position, type RecordedEvent } from '../port.js';
import { toPosition, toRecorded } from './events.js';
import { planFilter, type FilterPlan } from './filter.js';
import { Puller } from './pull.js';
import { isTrustedCheckpoint } from './server-checks.js';

export type FeedItem = { event: RecordedEvent } | 'live';

export class FeedReader {
  private readonly plan: FilterPlan;
  private readonly sub: AllStreamSubscription;
  private readonly puller: Puller<AllStreamResolvedEvent>;
  /** Items read so far (matching or not): the marks below count in it. */
  private read = 0;
  /** Pending caught-up marks: when each comes due, and the last trusted checkpoint before it. */
  private readonly marks: { at: number; checkpoint: Position | undefined }[] = [];
  private checkpoint: Position | undefined;
  private checkpointAtLive: Position | undefined;

  constructor(
    client: EventStoreDBClient,
    private readonly after: Position | undefined,
    filter: FeedFilter | undefined,
    opts: { signal?: AbortSignal; bufferSize?: number; headBeforeRead?: Position | undefined } = {},
  ) {
    this.plan = planFilter(filter, (p) => {
      const checkpoint = toPosition(p);
      if (isTrustedCheckpoint(checkpoint, opts.headBeforeRead)) this.checkpoint = checkpoint;
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
    // Server checkpoints received so far lie at or before the mark; later ones may pass live
    // events not read yet, so only these may stand for "scanned up to here".
    this.marks.push({ at: this.read + this.puller.buffered, checkpoint: this.checkpoint });
    this.puller.poke();
  };

  private get liveDue(): boolean {
    return this.marks.length > 0 && this.marks[0]!.at <= this.read;
  }

  /** The next item already received, or undefined when none is. Throws when the subscription failed. */
  next(): FeedItem | undefined {
    for (;;) {
      if (this.liveDue) {
        this.checkpointAtLive = this.marks.shift()!.checkpoint;
        return 'live';
      }
      const resolved = this.puller.tryRead();
      if (resolved === undefined) return undefined;
      this.read++;
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
    return this.puller.finished && this.marks.length === 0;
  }

  /** Resolves once next() may have something new (or the subscription ended, failed or was aborted). */
  async wait(): Promise<void> {
    if (this.liveDue) return;
    await this.puller.changed();
  }

  async close(): Promise<void> {
    this.sub.off('caughtUp', this.onCaughtUp);
    this.puller.dispose();
    await this.sub.unsubscribe().catch(() => undefined);
  }
}
