// Catch-up subscription: page through the feed from a checkpoint, hand each page to the
// subscriber, and once at the live end wait for a wake-up (or the poll interval) and go on.
import type { CatchUpOptions, Position, ReadAllOptions, ReadAllPage, Subscription } from '../port.js';
import type { Wakeup } from './wakeup.js';
import { backoffMs } from '../../infra/availability.js';

export const POLL_INTERVAL_MS = 500;

export function catchUp(read: (o: ReadAllOptions) => Promise<ReadAllPage>, wakeup: Wakeup, o: CatchUpOptions): Subscription {
  const abort = new AbortController();
  let position: Position | undefined = o.after;
  let failures = 0;
  const pageOf = (after: Position | undefined): Promise<ReadAllPage> => read({ after, filter: o.filter, maxCount: o.batchSize ?? 500 });
  // Behind the live end, the next page is read while the subscriber applies this one (a rebuild or
  // a catch-up then waits for the database once per page, not twice). The read ahead starts after
  // this page's last position, as the next read would; it is used only once this page is applied,
  // and dropped on a failure, when the loop reads again from the position it has.
  let ahead: Promise<ReadAllPage> | undefined;
  const running = new Set<Promise<unknown>>();
  const readAhead = (after: Position | undefined): Promise<ReadAllPage> => {
    const p = pageOf(after);
    // Handled now, so a failure while the page is applied is no unhandled rejection; whoever
    // awaits it still gets the failure.
    const settled = p.then(
      () => undefined,
      () => undefined,
    );
    running.add(settled);
    void settled.then(() => running.delete(settled));
    return p;
  };
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        const readAheadPage = ahead !== undefined;
        const page = await (ahead ?? pageOf(position));
        ahead = undefined;
        if (page.events.length > 0) {
          if (!page.isEnd) ahead = readAhead(page.lastPosition);
          await o.onBatch(page.events, page.lastPosition);
          position = page.lastPosition;
        }
        // A page read ahead saw the feed as it was before the page before it was applied: what
        // another process committed meanwhile (its NOTIFY came while nobody waited) is read now,
        // not after the next wake-up or poll.
        if (page.isEnd && !readAheadPage) {
          failures = 0;
          o.onCaughtUp?.();
          await wakeup.idle(POLL_INTERVAL_MS, abort.signal, o.filter, position);
        }
      } catch (err) {
        ahead = undefined; // read after a page that was not applied: read again from `position`
        // A failing handler or a lost connection: report, back off, retry from the same position
        // (the handler commits its checkpoint with its rows, so nothing is applied twice). The
        // backoff grows while the failures last (a database that is down for a while).
        try {
          o.onError?.(err);
        } catch {
          // a reporter's own failure must not end the subscription
        }
        await wakeup.wait(backoffMs(failures++ + 2), abort.signal);
      }
    }
  })();
  return {
    async stop() {
      abort.abort();
      await loop;
      // Reads ahead still running end before the store closes its pool.
      await Promise.all(running);
    },
  };
}
