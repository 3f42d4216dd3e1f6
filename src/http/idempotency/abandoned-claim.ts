// What became of a request whose Idempotency-Key claim was never answered: its process died
// (kill -9, a crash), or it could not store its answer (the database went away after the commit).
// The claim names the request (its id is the correlationId of every event it appended) and the
// log's head when it was claimed, so the events after that head tell whether the request was
// carried out. A retry then gets the truth instead of "still being processed" for 24 hours: the
// request runs again only if nothing of it was recorded.
//
// A claim counts as abandoned once it is older than IDEMPOTENCY_ABANDONED_AFTER_SECONDS (300 s by
// default, from the database timeouts: config.ts), or, after a 5xx, once the request's last append
// can no longer commit. No request of this service runs that long: every statement is bounded by
// the pool's statement_timeout, and a payout batch that outlives its request is finished by the
// resumer, not by a retry. The request id is the client's X-Request-Id when it sent one, so a
// client that gives two different requests one id within the window can make the second look
// carried out (never the reverse); the claim itself is held by a token of the server's.
import { categoryOf, parsePosition, type EventStore } from '../../eventstore/port.js';
import { COST_CENTER_CATEGORY } from '../../domain/cost-centers/index.js';
import { DEPARTMENT_CATEGORY } from '../../domain/departments/index.js';
import { EMPLOYEE_CATEGORY } from '../../domain/employees/index.js';
import { PAYOUT_BATCH_CATEGORY } from '../../domain/payouts/index.js';
import { TRAVEL_ENTRY_CATEGORY } from '../../domain/travel-entries/index.js';
import { VEHICLE_CATEGORY } from '../../domain/vehicles/index.js';

/**
 * Events recorded this long after the claim's window closed are not looked at: the request was
 * presumed dead by then. The margin covers clocks (the event store's, the claim table's).
 */
const CLOCK_MARGIN_MS = 60_000;

export interface UnansweredClaim {
  tenantId: string;
  /** The claiming request's id (its events' correlationId); null on a claim from before this was kept. */
  requestId: string | null;
  /** The log's head when the key was claimed (formatPosition); null on a claim from before this was kept. */
  logPosition: string | null;
  claimedAt: Date;
}

export type ClaimOutcome =
  /** The request changed these partner resources (API paths). */
  | { kind: 'carried-out'; resources: string[] }
  | { kind: 'not-carried-out' }
  /** A claim that does not say where to look (made before session 22). */
  | { kind: 'unknown' };

const RESOURCE_PATHS: Record<string, string> = {
  [TRAVEL_ENTRY_CATEGORY]: '/api/v1/travel-entries/',
  [EMPLOYEE_CATEGORY]: '/api/v1/employees/',
  [PAYOUT_BATCH_CATEGORY]: '/api/v1/payouts/batches/',
  [DEPARTMENT_CATEGORY]: '/api/v1/departments/',
  [COST_CENTER_CATEGORY]: '/api/v1/cost-centers/',
  [VEHICLE_CATEGORY]: '/api/v1/vehicles/',
};

/** The API path of the resource a stream holds (`travelEntry-<id>` → `/api/v1/travel-entries/<id>`), if it has one. */
export function resourcePathOf(streamId: string): string | undefined {
  const category = categoryOf(streamId);
  if (!Object.hasOwn(RESOURCE_PATHS, category) || category === streamId) return undefined;
  return RESOURCE_PATHS[category] + streamId.slice(category.length + 1);
}

/**
 * Looks for the claiming request's events after the claim's head. Only the partner's resources
 * count: a request that recorded nothing but a helper stream (a code's claim, an entry number's
 * reservation) made nothing the partner can see, and its retry may take those again.
 */
export async function outcomeOf(store: EventStore, claim: UnansweredClaim, abandonedAfterMs: number): Promise<ClaimOutcome> {
  if (claim.requestId === null || claim.logPosition === null) return { kind: 'unknown' };
  const streams = await store.streamsOfRequest({
    after: parsePosition(claim.logPosition),
    correlationId: claim.requestId,
    tenantId: claim.tenantId,
    until: new Date(claim.claimedAt.getTime() + abandonedAfterMs + CLOCK_MARGIN_MS),
  });
  const resources = [...new Set(streams.map(resourcePathOf).filter((p): p is string => p !== undefined))].sort();
  return resources.length > 0 ? { kind: 'carried-out', resources } : { kind: 'not-carried-out' };
}
