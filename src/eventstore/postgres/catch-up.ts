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
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        const page = await read({ after: position, filter: o.filter, maxCount: o.batchSize ?? 500 });
        if (page.events.length > 0) {
          await o.onBatch(page.events, page.lastPosition);
          position = page.lastPosition;
        }
        if (page.isEnd) {
          failures = 0;
          o.onCaughtUp?.();
          await wakeup.idle(POLL_INTERVAL_MS, abort.signal, o.filter, position);
        }
      } catch (err) {
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
    },
  };
}
