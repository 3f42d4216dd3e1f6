// Checking hash chains (event-hash.ts). A link is one event and the event before it in its stream:
// `valid` when the event's previousHash is that event's hash (or the genesis / unchained marker
// where the chain starts) and its own hash recomputes; `unhashed` for an event recorded before the
// chain existed (reported, never counted as valid); `broken` otherwise. A stream's verdict names its
// first broken link: the revision, what the chain expected there and what was found.
import type { EventMetadata } from '../../eventstore/port.js';
import { eventHash, GENESIS_HASH, unchainedMarker, type HashableEvent } from './event-hash.js';

export type LinkStatus = 'valid' | 'unhashed' | 'broken';

export interface BrokenLink {
  streamId: string;
  revision: number;
  /** Which field disagrees: the link to the previous event, the event's own hash, or a missing event. */
  field: 'previousHash' | 'hash' | 'revision';
  expected: string;
  found: string | null;
}

export interface LinkCheck {
  status: LinkStatus;
  broken?: BrokenLink;
}

/** What a link needs of the event before it. */
export interface PreviousLink {
  revision: number;
  metadata: Pick<EventMetadata, 'hash'>;
}

/** Checks one event against the one before it in its stream (undefined: it is the stream's first). */
export function checkLink(e: HashableEvent, previous: PreviousLink | undefined): LinkCheck {
  const broken = (field: BrokenLink['field'], expected: string, found: string | null): LinkCheck => ({
    status: 'broken',
    broken: { streamId: e.streamId, revision: e.revision, field, expected, found },
  });
  const expectedRevision = previous ? previous.revision + 1 : 0;
  if (e.revision !== expectedRevision) return broken('revision', String(expectedRevision), String(e.revision));
  const { hash, previousHash } = e.metadata;
  if (hash === undefined && previousHash === undefined) {
    // Older than the chain, unless the chain had already started: then its hash was removed.
    return previous?.metadata.hash === undefined ? { status: 'unhashed' } : broken('hash', 'a hash (the chain started earlier)', null);
  }
  const expectedPrevious = previous === undefined ? GENESIS_HASH : (previous.metadata.hash ?? unchainedMarker(e.revision));
  if (previousHash !== expectedPrevious) return broken('previousHash', expectedPrevious, previousHash ?? null);
  const recomputed = eventHash(expectedPrevious, e);
  if (hash !== recomputed) return broken('hash', recomputed, hash ?? null);
  return { status: 'valid' };
}

export type StreamStatus = 'valid' | 'unhashed' | 'broken';

export interface StreamVerification {
  streamId: string;
  /** `valid`: every event hashed and linked; `unhashed`: no broken link, but events older than the chain; `broken`: see firstBrokenLink. */
  status: StreamStatus;
  events: number;
  hashed: number;
  unhashed: number;
  /** The stream's last revision and hash: what an auditor writes down to detect a later truncation or rewrite. */
  headRevision: number;
  headHash: string | null;
  firstBrokenLink: BrokenLink | null;
}

/**
 * Verifies streams from their events in stream order, one event at a time, so a whole store can be
 * checked from the global feed without holding it (streams may interleave).
 */
export class ChainVerifier {
  private readonly streams = new Map<string, { last: PreviousLink; report: StreamVerification }>();

  /** Checks the next event of its stream and answers the link's verdict. */
  add(e: HashableEvent): LinkCheck {
    const known = this.streams.get(e.streamId);
    const check = checkLink(e, known?.last);
    const report: StreamVerification = known?.report ?? {
      streamId: e.streamId,
      status: 'valid',
      events: 0,
      hashed: 0,
      unhashed: 0,
      headRevision: -1,
      headHash: null,
      firstBrokenLink: null,
    };
    report.events += 1;
    if (e.metadata.hash === undefined) report.unhashed += 1;
    else report.hashed += 1;
    report.headRevision = e.revision;
    report.headHash = e.metadata.hash ?? null;
    if (check.broken && !report.firstBrokenLink) report.firstBrokenLink = check.broken;
    report.status = report.firstBrokenLink ? 'broken' : report.unhashed > 0 ? 'unhashed' : 'valid';
    this.streams.set(e.streamId, { last: { revision: e.revision, metadata: { hash: e.metadata.hash } }, report });
    return check;
  }

  reports(): StreamVerification[] {
    return [...this.streams.values()].map((s) => s.report);
  }
}

/** Verifies one whole stream (its events in order from revision 0). */
export function verifyEvents(events: readonly HashableEvent[]): StreamVerification | undefined {
  const v = new ChainVerifier();
  for (const e of events) v.add(e);
  return v.reports()[0];
}
