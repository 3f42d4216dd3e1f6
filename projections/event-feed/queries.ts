// Reads of the event feed. Every query takes the tenant; positions travel as decimal strings (int8
// read as text), so a cursor is exact whatever the store's position values.
import { sql } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { WebhookEventType } from '../../src/webhooks/catalog/event-types.js';

export interface FeedPosition {
  commit: string;
  prepare: string;
}

export interface FeedPageRow extends FeedPosition {
  payload: string;
}

/** Events strictly after `after` (from the start without it), in feed order, optionally of some types. */
export async function readFeedPage(
  db: Db,
  tenantId: string,
  o: { after?: FeedPosition | undefined; types?: readonly WebhookEventType[] | undefined; limit: number },
): Promise<FeedPageRow[]> {
  const after = o.after ? sql`and (pos_commit, pos_prepare) > (${o.after.commit}::bigint, ${o.after.prepare}::bigint)` : sql``;
  const types = o.types ? sql`and type = any(${[...o.types]}::text[])` : sql``;
  const r = await sql<FeedPageRow>`
    select pos_commit::text as commit, pos_prepare::text as prepare, payload from rm_event_feed
    where tenant_id = ${tenantId}::uuid ${after} ${types}
    order by pos_commit, pos_prepare limit ${o.limit}`.execute(db);
  return r.rows;
}

/** One event by its GUID (dashed form), or undefined (unknown, or another tenant's). */
export async function readFeedEvent(db: Db, tenantId: string, eventGuid: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('rm_event_feed')
    .select('payload')
    .where('tenant_id', '=', tenantId)
    .where('event_guid', '=', eventGuid)
    .executeTakeFirst();
  return row?.payload;
}

/** Whether one of the tenant's feed events is at exactly this position (a plain cursor's check). */
export async function isFeedEventPosition(db: Db, tenantId: string, p: FeedPosition): Promise<boolean> {
  const r = await sql<{ found: number }>`
    select 1 as found from rm_event_feed
    where tenant_id = ${tenantId}::uuid and pos_commit = ${p.commit}::bigint and pos_prepare = ${p.prepare}::bigint
    limit 1`.execute(db);
  return r.rows.length > 0;
}
