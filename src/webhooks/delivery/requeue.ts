// Partner-triggered redelivery: the manual retry of one delivery and the bulk recover of a time
// window. Both keep the delivery row, hence its event id and payload bytes; only the signature is
// new. Both apply only to Failed and Exhausted deliveries, and each grants exactly one more
// attempt: its result sets Succeeded, Failed, or (any retryable failure) Exhausted.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../infra/database.js';
import { normalizeClaim, type ClaimedDelivery } from './outbox.js';

/** Most deliveries one recover call re-queues (documented); the answer says where to continue. */
export const RECOVER_CAP = 10_000;
const RECOVER_BATCH = 1000;

/**
 * Leases a Failed or Exhausted delivery for a manual attempt. Undefined when it is in another state,
 * or another manual attempt holds it (a lease that ran out, say after a crash, can be taken over).
 */
export async function claimForManualRetry(
  db: Db,
  ids: { tenantId: string; subscriptionId: string; deliveryId: string },
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedDelivery | undefined> {
  const r = await sql<ClaimedDelivery>`
    update webhook_deliveries d set lease_token = ${randomUUID()}::uuid, lease_owner = null, next_attempt_at = ${leaseUntil}
    from webhook_subscriptions s
    where d.id = ${ids.deliveryId}::uuid and d.subscription_id = ${ids.subscriptionId}::uuid and d.tenant_id = ${ids.tenantId}::uuid
      and s.id = d.subscription_id and s.deleted_at is null
      and d.status in ('Failed', 'Exhausted') and (d.lease_token is null or d.next_attempt_at < ${now})
    returning d.id::text as id, d.tenant_id::text as tenant_id, d.subscription_id::text as subscription_id, d.event_id::text as event_id, d.event_type,
      d.payload, d.attempt_count, d.single_attempt, d.lease_token::text as lease_token,
      s.url, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at`.execute(db);
  const row = r.rows[0];
  return row ? normalizeClaim(row) : undefined;
}

export interface RecoverResult {
  requeued: number;
  /** True when the cap stopped the call before the window was exhausted. */
  more: boolean;
  /** With `more`: pass this as `since` in the next call. */
  resumeFrom: string | null;
}

/** Re-queues every Failed or Exhausted delivery created in [since, until), oldest first, up to RECOVER_CAP. */
export async function recoverDeliveries(
  db: Db,
  ids: { tenantId: string; subscriptionId: string },
  since: Date,
  until: Date,
  now: Date,
  cap = RECOVER_CAP,
): Promise<RecoverResult> {
  const matching = sql`tenant_id = ${ids.tenantId}::uuid and subscription_id = ${ids.subscriptionId}::uuid
    and status in ('Failed', 'Exhausted') and (lease_token is null or next_attempt_at < ${now})
    and created_at >= ${since} and created_at < ${until}`;
  let requeued = 0;
  while (requeued < cap) {
    const batch = Math.min(RECOVER_BATCH, cap - requeued);
    const r = await sql`
      update webhook_deliveries set status = 'Pending', next_attempt_at = ${now}, single_attempt = true, lease_token = null, lease_owner = null
      where id in (select id from webhook_deliveries where ${matching} order by created_at, id limit ${batch} for update skip locked)`.execute(
      db,
    );
    const n = Number(r.numAffectedRows ?? 0);
    requeued += n;
    if (n < batch) return { requeued, more: false, resumeFrom: null };
  }
  const next = await sql<{ at: Date | null }>`select min(created_at) as at from webhook_deliveries where ${matching}`.execute(db);
  const at = next.rows[0]?.at ?? null;
  return { requeued, more: at !== null, resumeFrom: at === null ? null : new Date(at).toISOString() };
}
