// What the adapter refuses before it trusts a server or a setting. Each rule answers a finding of
// the adapter's review (docs/eventstoredb.md, "Guards"): none of them can be shown without a live
// server here, so each is a small pure function with its own test.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { comparePositions, type FeedFilter, type Position } from '../port.js';

/**
 * Servers before 23.10 never send the caught-up mark on a filtered $all subscription, and every
 * forward read of the feed waits for it (feed-reader.ts): readAll, countAfter and rebuilds would
 * never finish, hanging /readyz and /metrics. An unknown version (a server without the features
 * endpoint, before 21.10) is refused too.
 */
export const MINIMUM_SERVER = { major: 23, minor: 10 } as const;

export function serverVersionProblem(version: string | undefined): string | undefined {
  const m = /^(\d+)\.(\d+)/.exec(version ?? '');
  if (!m) return `EventStoreDB did not report its version (${MINIMUM_SERVER.major}.${MINIMUM_SERVER.minor} or later is required)`;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  if (major > MINIMUM_SERVER.major || (major === MINIMUM_SERVER.major && minor >= MINIMUM_SERVER.minor)) return undefined;
  return `EventStoreDB ${version} is too old: ${MINIMUM_SERVER.major}.${MINIMUM_SERVER.minor} or later is required (older servers never mark the end of a filtered read)`;
}

/**
 * `throwOnAppendFailure=false` makes the client report a lost optimistic-concurrency race as a
 * successful append with `success: false`. The write path's retry depends on the conflict being
 * an error, so the option is refused outright (append.ts also checks `success`).
 */
export function connectionStringProblem(connectionString: string): string | undefined {
  const query = connectionString.split('?')[1] ?? '';
  for (const pair of query.split('&')) {
    const [key, value] = pair.split('=');
    if (key?.toLowerCase() === 'throwonappendfailure' && value?.toLowerCase() === 'false') {
      return 'EVENTSTORE_CONNECTION_STRING sets throwOnAppendFailure=false, which would report a concurrency conflict as a successful append';
    }
  }
  return undefined;
}

/** 2^63: no real log position reaches it; 24.10.0-24.10.4 send (2^64-1, 2^64-1) as a checkpoint. */
const IMPOSSIBLE_COMMIT = 1n << 63n;

/**
 * Whether a server checkpoint may stand for "the filtered scan got here". Servers 24.10.0 to
 * 24.10.4 send (2^64-1, 2^64-1) and 25.0.0 the end of the log, past events not yet read: a page
 * resuming from such a checkpoint would skip them. A checkpoint is kept only below 2^63 and at or
 * before the head of $all read before the subscription started.
 */
export function isTrustedCheckpoint(checkpoint: Position, headBeforeRead: Position | undefined): boolean {
  if (checkpoint.commit >= IMPOSSIBLE_COMMIT || checkpoint.prepare >= IMPOSSIBLE_COMMIT) return false;
  return headBeforeRead !== undefined && comparePositions(checkpoint, headBeforeRead) <= 0;
}

/**
 * A persistent subscription keeps the filter it was created with, and updating a group cannot
 * change it: a catalog that gains a category would silently never receive it. The group's name on
 * the server therefore carries a hash of its filter, so a new filter makes a new group.
 */
export function serverGroupName(group: string, filter: FeedFilter | undefined): string {
  const canonical = canonicalize({
    eventTypes: filter?.eventTypes ? [...filter.eventTypes].sort() : null,
    categories: filter?.categories ? [...filter.categories].sort() : null,
  });
  const hash = createHash('sha256')
    .update(canonical ?? '')
    .digest('hex')
    .slice(0, 12);
  return `${group}-f${hash}`;
}
