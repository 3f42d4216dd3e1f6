// Wake-ups for subscribers. NOTIFY is a hint, never the source of truth: it is not stored for
// disconnected listeners, so every subscriber also re-polls on a timer. In-process appends wake
// subscribers directly, without a database round trip, and say what was appended: a subscriber
// whose filter excludes it stays asleep instead of reading the feed for nothing (an entry create
// used to set off a dozen empty feed reads, one per subscription and append).
// A filtered sleep must not miss its own events, though. An append that concerns a subscriber can
// be invisible to the read it triggers (the feed stops below the oldest running transaction, which
// may be an append of another category, whose wake-up the filter then ignores), or can land while
// the subscriber is reading rather than waiting. So the store remembers the newest appended position
// per category: a subscriber that has not yet read up to a position that concerns it waits only
// briefly, for any wake-up, and reads again. Event-type filters and the moments after another
// process's NOTIFY wake on everything (see below).
import { EventEmitter } from 'node:events';
import type { DatabaseHandle } from '../../infra/database.js';
import { comparePositions, type FeedFilter, type Position } from '../port.js';
import { ReconnectingListener } from '../../infra/listener.js';
import { NOTIFY_CHANNEL } from './append.js';

/** What one in-process append wrote. A wake-up without it (a NOTIFY) may concern anything. */
export interface Appended {
  category: string;
  types: readonly string[];
  position: Position;
}

/** The re-read interval while an appended event that concerns a subscriber is not visible yet. */
export const SETTLE_MS = 10;
/**
 * After a NOTIFY from another process, every in-process wake-up wakes every subscriber for this
 * long: the other process's event may be hidden behind one of our own running appends, whatever
 * its category, and our append's commit is then the moment it shows.
 */
export const FOREIGN_WINDOW_MS = 1000;

/**
 * Only category filters let a subscriber sleep through appends. An append is one stream, so one
 * category, and a subscriber that takes the category reads every event of it: its position then
 * reaches the append's last position exactly (what `pendingFor` compares). An event-type filter
 * may take only some events of an append, so such subscribers wake on every append, as before.
 */
const categoriesOnly = (filter: FeedFilter | undefined): readonly string[] | undefined =>
  filter?.categories && !filter.eventTypes ? filter.categories : undefined;

export class Wakeup {
  private readonly emitter = new EventEmitter();
  /** Newest in-process appended position per category, and overall. */
  private readonly newest = new Map<string, Position>();
  private newestAny: Position | undefined;
  /** Until then in-process wake-ups wake everyone (FOREIGN_WINDOW_MS). */
  private foreignUntil = 0;
  private listener: ReconnectingListener | undefined;
  private started: Promise<void> | undefined;

  /** `origin` names this store's own NOTIFYs: they come back on LISTEN, but their appends already woke everyone concerned. */
  /** `channel` is the store's NOTIFY channel; a test gives its own, away from other processes' appends. */
  constructor(
    private readonly handle: DatabaseHandle,
    private readonly origin?: string,
    private readonly channel = NOTIFY_CHANNEL,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /**
   * Starts listening on first use. A lost or failed LISTEN only means polling until it is back (it
   * reconnects with backoff), so it is never fatal; `onError` hears of each failure.
   */
  ensureListening(onError?: (err: unknown) => void): void {
    this.started ??= this.listen(onError);
  }

  private async listen(onError?: (err: unknown) => void): Promise<void> {
    // The embedded database has no other process: in-process appends wake subscribers directly.
    if (this.handle.kind === 'pglite') return;
    let connectedBefore = false;
    const listener = new ReconnectingListener({
      connectionString: this.handle.connectionString!,
      channel: this.channel,
      onNotification: (payload) => {
        if (this.origin !== undefined && payload === this.origin) return;
        this.wakeEveryone();
      },
      // Back after a loss: other processes' NOTIFYs may have been missed, so everyone reads again.
      // (Not on the first connection: nothing was missed before it, subscribers read from their checkpoints.)
      onUp: () => {
        if (connectedBefore) this.wakeEveryone();
        connectedBefore = true;
      },
      onDown: (err) => {
        if (err) onError?.(err);
      },
      ...(onError ? { onError } : {}),
    });
    await listener.start();
    // Set once the first attempt is over (close() awaits that first): tests wait for it as "listening".
    this.listener = listener;
  }

  private wakeEveryone(): void {
    this.foreignUntil = Date.now() + FOREIGN_WINDOW_MS;
    this.notify();
  }

  notify(appended?: Appended): void {
    if (appended) {
      const p = appended.position;
      const seen = this.newest.get(appended.category);
      if (!seen || comparePositions(p, seen) > 0) this.newest.set(appended.category, p);
      if (!this.newestAny || comparePositions(p, this.newestAny) > 0) this.newestAny = p;
    }
    this.emitter.emit('wake', appended);
  }

  /**
   * True when this process appended, after `position`, an event that a subscriber with `filter`
   * reads and would sleep through (category filters, or none); event-type filters never sleep.
   */
  pendingFor(filter: FeedFilter | undefined, position: Position | undefined): boolean {
    const after = (p: Position | undefined): boolean => p !== undefined && (position === undefined || comparePositions(p, position) > 0);
    if (!filter || (!filter.categories && !filter.eventTypes)) return after(this.newestAny);
    return (categoriesOnly(filter) ?? []).some((c) => after(this.newest.get(c)));
  }

  private concerns(filter: FeedFilter | undefined, appended: Appended | undefined): boolean {
    const categories = categoriesOnly(filter);
    if (!appended || !categories || Date.now() < this.foreignUntil) return true;
    return categories.includes(appended.category);
  }

  /**
   * The wait of a subscriber at the end of the feed, having read up to `position`: until a wake-up
   * that concerns `filter`, or `ms`; but only SETTLE_MS, woken by anything, while an event it takes
   * is still ahead of it.
   */
  idle(ms: number, signal: AbortSignal | undefined, filter: FeedFilter | undefined, position: Position | undefined): Promise<void> {
    return this.pendingFor(filter, position) ? this.wait(SETTLE_MS, signal) : this.wait(ms, signal, filter);
  }

  /** Resolves on the next wake-up that concerns `filter` (any, without one) or after `ms`, whichever comes first. */
  wait(ms: number, signal?: AbortSignal, filter?: FeedFilter): Promise<void> {
    // An already-aborted signal never fires 'abort' again: without this, a subscription stopped
    // from inside its own last batch slept out the whole poll interval before stopping.
    if (signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.emitter.off('wake', onWake);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const onWake = (appended?: Appended): void => {
        if (this.concerns(filter, appended)) done();
      };
      const timer = setTimeout(done, ms);
      this.emitter.on('wake', onWake);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Whether LISTEN has been set up (it is started lazily by the first subscriber). */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  async close(): Promise<void> {
    await this.started;
    await this.listener?.close();
  }
}
