// Catch-up subscription: a filtered subscription to $all from the checkpoint (see feed-reader.ts).
// Events go to the subscriber in batches of what has already arrived, up to batchSize: small
// batches while live, larger ones while catching up or when the subscriber is slow. A failing
// batch or a lost connection is reported, and after a pause the subscription starts again after
// the last batch that succeeded, so nothing is skipped (a subscriber committing its checkpoint
// with its rows applies nothing twice).
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { CatchUpOptions, Position, RecordedEvent, Subscription } from '../port.js';
import { FeedReader } from './feed-reader.js';
import { sleep } from './sleep.js';

const DEFAULT_BATCH = 500;
const RETRY_MS = 1000;

export function catchUp(client: EventStoreDBClient, o: CatchUpOptions, reportError?: (err: unknown) => void): Subscription {
  const abort = new AbortController();
  const batchSize = Math.max(1, o.batchSize ?? DEFAULT_BATCH);
  let position: Position | undefined = o.after;

  const follow = async (): Promise<void> => {
    const reader = new FeedReader(client, position, o.filter, { signal: abort.signal, bufferSize: Math.min(batchSize, 1000) });
    try {
      while (!abort.signal.aborted) {
        const batch: RecordedEvent[] = [];
        let live = false;
        while (batch.length < batchSize) {
          const item = reader.next();
          if (item === undefined) break;
          if (item === 'live') {
            live = true;
            break;
          }
          batch.push(item.event);
        }
        if (batch.length > 0) {
          const last = batch[batch.length - 1]!.position;
          await o.onBatch(batch, last);
          position = last;
        }
        if (live) {
          o.onCaughtUp?.();
          continue;
        }
        if (batch.length === 0) {
          if (reader.ended) throw new Error('EventStoreDB ended the catch-up subscription');
          await reader.wait();
        }
      }
    } finally {
      await reader.close();
    }
  };

  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await follow();
      } catch (err) {
        if (abort.signal.aborted) break;
        (o.onError ?? reportError)?.(err);
        await sleep(RETRY_MS, abort.signal);
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
