// EventStore.streamsOfRequest for a store whose log is read in commit order with nothing hidden
// (EventStoreDB's $all): the log after the position, page by page, up to the first event recorded
// after `until`. The PostgreSQL store answers the same question in one statement (postgres/read.ts).
import type { ReadAllOptions, ReadAllPage, RequestEvents } from './port.js';

const PAGE = 1000;

export async function scanStreamsOfRequest(readAll: (o: ReadAllOptions) => Promise<ReadAllPage>, q: RequestEvents): Promise<string[]> {
  const streams = new Set<string>();
  let after = q.after;
  for (;;) {
    const page = await readAll({ after, maxCount: PAGE });
    for (const e of page.events) {
      if (e.recordedAt > q.until) return [...streams];
      if (e.metadata.correlationId === q.correlationId && e.metadata.tenantId === q.tenantId) streams.add(e.streamId);
    }
    if (page.isEnd || page.lastPosition === undefined) return [...streams];
    after = page.lastPosition;
  }
}
