// Verification of stored hash chains: one stream (read whole), or every stream of the store or of
// one tenant (read from the global feed page by page, each stream checked as its events pass).
// Both event stores answer the same: only the port is used.
import type { EventStore, Position } from '../../eventstore/port.js';
import { ChainVerifier, verifyEvents, type BrokenLink, type StreamVerification } from './verify-chain.js';

/** One stream's verification; undefined when it does not exist or (with a tenant) belongs to another tenant. */
export async function verifyStream(store: EventStore, streamId: string, tenantId?: string): Promise<StreamVerification | undefined> {
  const events = await store.readStream(streamId);
  if (events.length === 0) return undefined;
  if (tenantId !== undefined && events[0]!.metadata.tenantId !== tenantId) return undefined;
  return verifyEvents(events);
}

export interface StoreVerification {
  /** True when no stream has a broken link (unhashed streams are counted, not hidden). */
  ok: boolean;
  streams: number;
  events: number;
  valid: number;
  /** Streams with events recorded before the chain existed, and no broken link. */
  unhashed: number;
  broken: number;
  /** The first broken link of each broken stream, in feed order of discovery (at most BROKEN_LISTED). */
  brokenLinks: BrokenLink[];
}

const PAGE = 1000;
const BROKEN_LISTED = 1000;

/** Every stream (of one tenant, when given), from the global feed. */
export async function verifyStore(
  store: EventStore,
  opts: { tenantId?: string | undefined; onProgress?: (events: number) => void } = {},
): Promise<StoreVerification> {
  const verifier = new ChainVerifier();
  let after: Position | undefined;
  let events = 0;
  for (;;) {
    const page = await store.readAll({ after, maxCount: PAGE });
    for (const e of page.events) {
      if (opts.tenantId !== undefined && e.metadata?.tenantId !== opts.tenantId) continue;
      verifier.add(e);
      events += 1;
    }
    opts.onProgress?.(events);
    after = page.lastPosition ?? after;
    if (page.isEnd || page.events.length === 0) break;
  }
  const reports = verifier.reports();
  const broken = reports.filter((r) => r.status === 'broken');
  return {
    ok: broken.length === 0,
    streams: reports.length,
    events,
    valid: reports.filter((r) => r.status === 'valid').length,
    unhashed: reports.filter((r) => r.status === 'unhashed').length,
    broken: broken.length,
    brokenLinks: broken.slice(0, BROKEN_LISTED).map((r) => r.firstBrokenLink!),
  };
}
