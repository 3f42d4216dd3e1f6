// Webhook subscriptions in the database. Every read and write is scoped to one tenant; a deleted
// subscription is kept (soft delete) only so that its delivery rows can age out with retention,
// and it is invisible to every partner operation.
import { BY_CREATION, seekPage } from '../../../projections/keyset.js';
import { sql } from 'kysely';
import { DomainError } from '../../domain/errors.js';
import type { Db } from '../../infra/database.js';

/** The partner-visible record (never a secret). */
export interface WebhookSubscription {
  id: string;
  url: string;
  eventTypes: string[];
  isActive: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  /** While a rotation's grace period runs: when the previous secret stops signing. */
  previousSecretExpiresAt: string | null;
}

export interface SubscriptionRow {
  id: string;
  tenant_id: string;
  url: string;
  event_types: string[];
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  is_active: boolean;
  disabled_at: Date | null;
  disabled_reason: string | null;
  create_request_hash: string | null;
  rotation_idempotency_key: string | null;
  rotated_at: Date | null;
  created_at: Date;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function toSubscription(row: SubscriptionRow, now = new Date()): WebhookSubscription {
  const graceRunning = row.previous_secret_expires_at !== null && new Date(row.previous_secret_expires_at) > now;
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.event_types,
    isActive: row.is_active,
    disabledAt: iso(row.disabled_at),
    disabledReason: row.disabled_reason,
    createdAt: iso(row.created_at)!,
    previousSecretExpiresAt: graceRunning ? iso(row.previous_secret_expires_at) : null,
  };
}

const COLUMNS = sql`id::text as id, tenant_id::text as tenant_id, url, event_types, secret_sealed, previous_secret_sealed,
  previous_secret_expires_at, is_active, disabled_at, disabled_reason, create_request_hash, rotation_idempotency_key, rotated_at, created_at`;

export const subscriptionLimitReached = (limit: number): DomainError =>
  new DomainError(
    'LIMIT_REACHED',
    `A tenant can hold at most ${limit} webhook subscriptions; delete one before creating another.`,
    undefined,
    { limit },
  );

export async function insertSubscription(
  db: Db,
  s: {
    id: string;
    tenantId: string;
    url: string;
    eventTypes: string[];
    secretSealed: string;
    idempotencyKey?: string | undefined;
    requestHash?: string | undefined;
    /** Live subscriptions the tenant may hold; reached: throws LIMIT_REACHED. Absent: no limit (tooling). */
    maxPerTenant?: number;
  },
): Promise<SubscriptionRow | undefined> {
  return db.transaction().execute(async (trx) => {
    if (s.maxPerTenant !== undefined) {
      // Creates of one tenant queue on its tenant row, so two concurrent creates at limit - 1
      // cannot both count limit - 1 and both insert. Deleted subscriptions do not count.
      await sql`select 1 from tenants where id = ${s.tenantId}::uuid for update`.execute(trx);
      const live = await sql<{ n: number }>`
        select count(*)::int as n from webhook_subscriptions where tenant_id = ${s.tenantId}::uuid and deleted_at is null`.execute(trx);
      if (Number(live.rows[0]?.n ?? 0) >= s.maxPerTenant) throw subscriptionLimitReached(s.maxPerTenant);
    }
    // With an Idempotency-Key, a concurrent twin loses on the unique index and reads the winner's row.
    const r = await sql<SubscriptionRow>`
      insert into webhook_subscriptions (id, tenant_id, url, event_types, secret_sealed, create_idempotency_key, create_request_hash)
      values (${s.id}::uuid, ${s.tenantId}::uuid, ${s.url}, ${s.eventTypes}::text[], ${s.secretSealed}, ${s.idempotencyKey ?? null}, ${s.requestHash ?? null})
      on conflict do nothing
      returning ${COLUMNS}`.execute(trx);
    return r.rows[0];
  });
}

/** The subscription an earlier create with this Idempotency-Key made (within the replay window), even if since deleted. */
export async function findByCreateKey(
  db: Db,
  tenantId: string,
  key: string,
  windowHours: number,
): Promise<(SubscriptionRow & { deleted: boolean }) | undefined> {
  const r = await sql<SubscriptionRow & { deleted: boolean }>`
    select ${COLUMNS}, deleted_at is not null as deleted from webhook_subscriptions
    where tenant_id = ${tenantId}::uuid and create_idempotency_key = ${key}
      and created_at > now() - make_interval(hours => ${windowHours})`.execute(db);
  return r.rows[0];
}

export async function getSubscriptionRow(db: Db, tenantId: string, id: string): Promise<SubscriptionRow | undefined> {
  const r = await sql<SubscriptionRow>`
    select ${COLUMNS} from webhook_subscriptions
    where tenant_id = ${tenantId}::uuid and id = ${id}::uuid and deleted_at is null`.execute(db);
  return r.rows[0];
}

/** Oldest first; `after` (a cursor's key) starts after that subscription, without a total. */
export async function listSubscriptionRows(
  db: Db,
  tenantId: string,
  page: number,
  pageSize: number,
  after?: readonly string[],
): Promise<{ rows: SubscriptionRow[]; total?: number; next: string[] | null }> {
  return seekPage<SubscriptionRow>(db, {
    table: 'webhook_subscriptions',
    select: COLUMNS,
    where: [sql`tenant_id = ${tenantId}::uuid`, sql`deleted_at is null`],
    order: BY_CREATION,
    page: { start: after ? { after } : { offset: (page - 1) * pageSize }, pageSize },
  });
}

/** Soft-deletes the subscription and cancels its pending deliveries; false when there is none to delete. */
export async function deleteSubscription(db: Db, tenantId: string, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await sql`
      update webhook_subscriptions set deleted_at = now(), is_active = false
      where tenant_id = ${tenantId}::uuid and id = ${id}::uuid and deleted_at is null`.execute(trx);
    if (Number(r.numAffectedRows ?? 0) === 0) return false;
    // A worker holding one of these rows mid-attempt finds its lease gone and records nothing.
    await sql`
      update webhook_deliveries set status = 'Cancelled', next_attempt_at = null, lease_token = null, lease_owner = null
      where subscription_id = ${id}::uuid and status = 'Pending'`.execute(trx);
    return true;
  });
}

/**
 * Makes `newSecretSealed` the signing secret; the current one keeps signing until `graceHours`
 * from now (a still-running earlier grace period ends: at most two secrets sign).
 */
export async function rotateSubscriptionSecret(
  db: Db,
  tenantId: string,
  id: string,
  newSecretSealed: string,
  graceHours: number,
  idempotencyKey: string | undefined,
): Promise<SubscriptionRow | undefined> {
  const r = await sql<SubscriptionRow>`
    update webhook_subscriptions set
      previous_secret_sealed = secret_sealed,
      previous_secret_expires_at = now() + make_interval(hours => ${graceHours}),
      secret_sealed = ${newSecretSealed},
      rotation_idempotency_key = ${idempotencyKey ?? null},
      rotated_at = now()
    where tenant_id = ${tenantId}::uuid and id = ${id}::uuid and deleted_at is null
    returning ${COLUMNS}`.execute(db);
  return r.rows[0];
}
