// The global feed as pages, its head, and the count behind a checkpoint (projection lag).
import { BACKWARDS, END, type AllStreamResolvedEvent, type EventStoreDBClient } from '@eventstore/db-client';
import { comparePositions, type FeedFilter, type Position, type ReadAllOptions, type ReadAllPage, type RecordedEvent } from '../port.js';
import { toPosition } from './events.js';
import { FeedReader } from './feed-reader.js';
import { planFilter } from './filter.js';
import { readEach } from './pull.js';

const DEFAULT_PAGE = 500;

export async function readAll(client: EventStoreDBClient, o: ReadAllOptions = {}): Promise<ReadAllPage> {
  const max = o.maxCount ?? DEFAULT_PAGE;
  if (max <= 0) return { events: [], lastPosition: o.after, isEnd: false };
  // The page may end past its last event at a server checkpoint; only one at or before this head
  // is trusted (server-checks.ts: some server versions send checkpoints past unread events).
  const headBeforeRead = await headPosition(client, undefined, { includeSystem: true });
  const reader = new FeedReader(client, o.after, o.filter, { bufferSize: Math.min(max, 1000), headBeforeRead });
  const events: RecordedEvent[] = [];
  try {
    for (;;) {
      const item = reader.next();
      if (item === 'live') {
        // At the end of the feed the page may reach past its last event, up to where the server's
        // filtered scan got, so checkpoints on sparse filters keep moving.
        const last = events.length > 0 ? events[events.length - 1]!.position : o.after;
        return { events, lastPosition: later(last, reader.scannedTo), isEnd: true };
      }
      if (item) {
        events.push(item.event);
        if (events.length >= max) return { events, lastPosition: item.event.position, isEnd: false };
        continue;
      }
      if (reader.ended) throw new Error('EventStoreDB ended the $all subscription before it caught up');
      await reader.wait();
    }
  } finally {
    await reader.close();
  }
}

/** Matching events after `after`, counted up to `cap`. The server filters; only matches travel. */
export async function countAfter(
  client: EventStoreDBClient,
  after: Position | undefined,
  filter: FeedFilter | undefined,
  cap: number,
): Promise<number> {
  if (cap <= 0) return 0;
  const reader = new FeedReader(client, after, filter, { bufferSize: 1000 });
  let n = 0;
  try {
    for (;;) {
      const item = reader.next();
      if (item === 'live') return n;
      if (item) {
        if (++n >= cap) return n;
        continue;
      }
      if (reader.ended) throw new Error('EventStoreDB ended the $all subscription before it caught up');
      await reader.wait();
    }
  } finally {
    await reader.close();
  }
}

/**
 * The last matching event, read backwards from the end of $all. Backward reads have no server-side
 * filter, so a filter whose last match lies far back costs a long scan.
 */
export async function headPosition(
  client: EventStoreDBClient,
  filter?: FeedFilter,
  opts: { includeSystem?: boolean } = {},
): Promise<Position | undefined> {
  const plan = planFilter(filter);
  let head: Position | undefined;
  await readEach<AllStreamResolvedEvent>(client.readAll({ direction: BACKWARDS, fromPosition: END }), ({ event }) => {
    if (!event || (!opts.includeSystem && !plan.matches(event))) return true;
    head = toPosition(event.position);
    return false;
  });
  return head;
}

function later(a: Position | undefined, b: Position | undefined): Position | undefined {
  if (!a) return b;
  if (!b) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}
