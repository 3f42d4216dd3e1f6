// What became of a request whose Idempotency-Key claim was never answered: its process died
// (kill -9, a crash), or it could not store its answer (the database went away after the commit).
// The claim names the request (its id is the correlationId of every event it appended) and the
// log's head when it was claimed, so the events after that head tell whether the request was
// carried out. A retry then gets the truth instead of "still being processed" for 24 hours: the
// request runs again only if nothing of it was recorded.
//
// A claim counts as abandoned once it is older than IDEMPOTENCY_ABANDONED_AFTER_SECONDS (148 s by
// default, from the database timeouts: config.ts). No request of this service runs that long:
// every statement is bounded by the pool's statement_timeout, and a payout batch that outlives its
// request is finished by the resumer, not by a retry. The request id is the client's X-Request-Id when it sent one: a client that gives two
// requests one id within the window can make the second look carried out (never the reverse).
import { parsePosition, type EventStore } from '../../eventstore/port.js';
import { COST_CENTER_CATEGORY } from '../../domain/cost-centers/index.js';
import { DEPARTMENT_CATEGORY } from '../../domain/departments/index.js';
import { EMPLOYEE_CATEGORY } from '../../domain/employees/index.js';
import { PAYOUT_BATCH_CATEGORY } from '../../domain/payouts/index.js';
import { TRAVEL_ENTRY_CATEGORY } from '../../domain/travel-entries/index.js';
import { VEHICLE_CATEGORY } from '../../domain/vehicles/index.js';

/** Events are read from the log in pages of this many. */
const PAGE = 1000;
/**
 * Events recorded this long after the claim's window closed are not looked at: the request was
 * presumed dead by then. The margin covers clocks (the event store's, the claim table's).
 */
const CLOCK_MARGIN_MS = 60_000;

export interface UnansweredClaim {
  tenantId: string;
  /** The claiming request's id (its events' correlationId); null on a claim from before this was kept. */
  requestId: string | null;
  /** The log's head when the key was claimed (formatPosition); null: the log was empty, or not kept. */
  logPosition: string | null;
  claimedAt: Date;
}

export type ClaimOutcome =
  /** Something was recorded: the paths of the partner resources it changed (streams without one are left out). */
  | { kind: 'carried-out'; resources: string[] }
  | { kind: 'not-carried-out' }
  /** A claim made before requests were named in it: nothing to look for. */
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
  const dash = streamId.indexOf('-');
  const base = dash > 0 && Object.hasOwn(RESOURCE_PATHS, streamId.slice(0, dash)) ? RESOURCE_PATHS[streamId.slice(0, dash)] : undefined;
  return base === undefined ? undefined : base + streamId.slice(dash + 1);
}

/** Reads the log after the claim's head for events of the claiming request. */
export async function outcomeOf(store: EventStore, claim: UnansweredClaim, abandonedAfterMs: number): Promise<ClaimOutcome> {
  if (claim.requestId === null) return { kind: 'unknown' };
  const lastRelevant = claim.claimedAt.getTime() + abandonedAfterMs + CLOCK_MARGIN_MS;
  const resources = new Set<string>();
  let found = false;
  let after = claim.logPosition === null ? undefined : parsePosition(claim.logPosition);
  for (;;) {
    const page = await store.readAll({ after, maxCount: PAGE });
    for (const e of page.events) {
      if (e.recordedAt.getTime() > lastRelevant)
        return found ? { kind: 'carried-out', resources: [...resources] } : { kind: 'not-carried-out' };
      if (e.metadata.correlationId !== claim.requestId || e.metadata.tenantId !== claim.tenantId) continue;
      found = true;
      const path = resourcePathOf(e.streamId);
      if (path !== undefined) resources.add(path);
    }
    if (page.isEnd || page.lastPosition === undefined) break;
    after = page.lastPosition;
  }
  return found ? { kind: 'carried-out', resources: [...resources] } : { kind: 'not-carried-out' };
}
