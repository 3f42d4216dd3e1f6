// The delivery log as partners read it: one subscription's deliveries, newest first, and one
// delivery with its exact payload and every attempt. The caller has already checked that the
// subscription belongs to the tenant; every query is additionally scoped by tenant and
// subscription, so a delivery of another subscription is simply not found (404).
import { sql } from 'kysely';
import type { Db } from '../../infra/database.js';
import { envelopeIdOf } from '../catalog/event-id.js';
import type { DeliveryStatus } from '../tables.js';
import { keyOfRow, keySelect, seekPage, type Keyed, type KeyOrder } from '../../../projections/keyset.js';

export interface DeliverySummary {
  deliveryId: string;
  /** The envelope id (`evt_` + 32 hex); Service-Event-Id carries the same GUID dashed. */
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  lastResponseStatus: number | null;
}

export interface DeliveryAttempt {
  attemptNumber: number;
  attemptedAt: string;
  manual: boolean;
  statusCode: number | null;
  latencyMs: number;
  failureClass: string | null;
  errorMessage: string;
  responseBody: string | null;
  responseTruncated: boolean;
}

export interface DeliveryDetail extends DeliverySummary {
  /** The exact bytes sent (and signed), as UTF-8 text. */
  payload: string;
  lastResponseBody: string | null;
  lastFailureClass: string | null;
  attempts: DeliveryAttempt[];
}

interface SummaryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  created_at: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  last_response_status: number | null;
}

const SUMMARY_COLUMNS = sql`id::text as id, event_id::text as event_id, event_type, status, attempt_count, created_at,
  last_attempt_at, next_attempt_at, last_response_status`;

const iso = (d: Date | null): string | null => (d === null ? null : new Date(d).toISOString());

function toSummary(r: SummaryRow): DeliverySummary {
  return {
    deliveryId: r.id,
    eventId: envelopeIdOf(r.event_id),
    eventType: r.event_type,
    status: r.status,
    attemptCount: Number(r.attempt_count),
    createdAt: iso(r.created_at)!,
    lastAttemptAt: iso(r.last_attempt_at),
    // A finished delivery has no next attempt; for a Pending one this is its due time or, while an
    // attempt runs, the end of that attempt's lease.
    nextAttemptAt: r.status === 'Pending' ? iso(r.next_attempt_at) : null,
    lastResponseStatus: r.last_response_status,
  };
}

/** Newest first; a delivery is inserted once and its created_at never changes, so pages are stable. */
const NEWEST_FIRST: KeyOrder = {
  columns: [
    { column: 'created_at', type: 'timestamptz' },
    { column: 'id', type: 'uuid' },
  ],
  descending: true,
};

export interface DeliveryListQuery {
  page: number;
  pageSize: number;
  status?: DeliveryStatus | undefined;
  eventType?: string | undefined;
}

function deliveryConditions(tenantId: string, subscriptionId: string, q: Omit<DeliveryListQuery, 'page' | 'pageSize'>) {
  const conds = [sql`tenant_id = ${tenantId}::uuid`, sql`subscription_id = ${subscriptionId}::uuid`, sql`status <> 'Cancelled'`];
  if (q.status !== undefined) conds.push(sql`status = ${q.status}`);
  if (q.eventType !== undefined) conds.push(sql`event_type = ${q.eventType}`);
  return conds;
}

/** A cursor page: the deliveries after the one with key `after` (keyset, no total). */
export async function listDeliveriesAfter(
  db: Db,
  tenantId: string,
  subscriptionId: string,
  after: readonly string[],
  q: Omit<DeliveryListQuery, 'page'>,
): Promise<{ items: DeliverySummary[]; next: string[] | null }> {
  const r = await seekPage<SummaryRow>(db, {
    table: 'webhook_deliveries',
    select: SUMMARY_COLUMNS,
    where: deliveryConditions(tenantId, subscriptionId, q),
    order: NEWEST_FIRST,
    page: { start: { after }, pageSize: q.pageSize },
  });
  return { items: r.rows.map(toSummary), next: r.next };
}

export async function listDeliveries(
  db: Db,
  tenantId: string,
  subscriptionId: string,
  q: DeliveryListQuery,
): Promise<{ items: DeliverySummary[]; total: number; next: string[] | null }> {
  const where = sql.join(deliveryConditions(tenantId, subscriptionId, q), sql` and `);
  // The page and its total in one statement, so both describe one snapshot: as two statements (on
  // two pool connections) a delivery settling in between was counted but not listed, or listed
  // but not counted. The outer row exists even for an empty page, so the total always comes back.
  // One row more than the page says whether another page follows (nextCursor).
  const r = await sql<{ [K in keyof SummaryRow]: SummaryRow[K] | null } & { total: number; sort_id: string | null } & Keyed>`
    select c.total, p.* from (select count(*)::int as total from webhook_deliveries where ${where}) c
    left join lateral (
      select ${SUMMARY_COLUMNS}, id as sort_id, ${keySelect(NEWEST_FIRST)} from webhook_deliveries where ${where}
      order by created_at desc, sort_id desc limit ${q.pageSize + 1} offset ${(q.page - 1) * q.pageSize}
    ) p on true
    order by p.created_at desc, p.sort_id desc`.execute(db);
  const rows = r.rows.filter((row) => row.id !== null);
  const page = rows.slice(0, q.pageSize);
  const next = rows.length > q.pageSize ? keyOfRow(NEWEST_FIRST, page[page.length - 1]!) : null;
  return { items: page.map((row) => toSummary(row as SummaryRow)), total: Number(r.rows[0]?.total ?? 0), next };
}

export async function getDelivery(
  db: Db,
  tenantId: string,
  subscriptionId: string,
  deliveryId: string,
): Promise<DeliveryDetail | undefined> {
  const r = await sql<SummaryRow & { payload: Uint8Array; last_response_body: string | null; last_failure_class: string | null }>`
    select ${SUMMARY_COLUMNS}, payload, last_response_body, last_failure_class from webhook_deliveries
    where tenant_id = ${tenantId}::uuid and subscription_id = ${subscriptionId}::uuid and id = ${deliveryId}::uuid and status <> 'Cancelled'`.execute(
    db,
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const attempts = await sql<{
    attempt_number: number;
    attempted_at: Date;
    manual: boolean;
    status_code: number | null;
    latency_ms: number;
    failure_class: string | null;
    error_message: string;
    response_body: string | null;
    response_truncated: boolean;
  }>`
    select attempt_number, attempted_at, manual, status_code, latency_ms, failure_class, error_message, response_body, response_truncated
    from webhook_delivery_attempts where delivery_id = ${deliveryId}::uuid order by id`.execute(db);
  return {
    ...toSummary(row),
    payload: Buffer.from(row.payload.buffer, row.payload.byteOffset, row.payload.byteLength).toString('utf8'),
    lastResponseBody: row.last_response_body,
    lastFailureClass: row.last_failure_class,
    attempts: attempts.rows.map((a) => ({
      attemptNumber: a.attempt_number,
      attemptedAt: iso(a.attempted_at)!,
      manual: a.manual,
      statusCode: a.status_code,
      latencyMs: a.latency_ms,
      failureClass: a.failure_class,
      errorMessage: a.error_message,
      responseBody: a.response_body,
      responseTruncated: a.response_truncated,
    })),
  };
}
