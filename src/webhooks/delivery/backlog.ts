// The webhook backlog as the metrics gauges show it (registerWebhookGauges), read at scrape time:
// pending deliveries, how long the oldest due one has waited, disabled subscriptions, and the
// catalog projector's lag (catalog events after its consumer group's checkpoint).
import { sql } from 'kysely';
import type { Db } from '../../infra/database.js';
import type { WebhookBacklog } from '../../infra/metrics.js';
import { parsePosition, type EventStore } from '../../eventstore/port.js';
import { CATALOG_CATEGORIES } from '../catalog/mapping.js';
import { CATALOG_GROUP } from '../catalog/projector.js';

const LAG_CAP = 1_000_000;

export async function readWebhookBacklog(db: Db, store: EventStore): Promise<WebhookBacklog> {
  const deliveries = await sql<{ pending: number; oldest_due_age: number | null }>`
    select count(*)::int as pending,
      extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now()))::float8 as oldest_due_age
    from webhook_deliveries where status = 'Pending'`.execute(db);
  const disabled = await sql<{ n: number }>`
    select count(*)::int as n from webhook_subscriptions where not is_active and deleted_at is null`.execute(db);
  const d = deliveries.rows[0];
  return {
    pending: Number(d?.pending ?? 0),
    oldestDueAgeSeconds: Math.max(0, Number(d?.oldest_due_age ?? 0)),
    disabledSubscriptions: Number(disabled.rows[0]?.n ?? 0),
    catalogLagEvents: await catalogLag(db, store),
  };
}

/**
 * On the PostgreSQL event store the group's checkpoint is a row next to the events; EventStoreDB
 * keeps it on its server, out of reach of the port, and the lag is then not reported.
 */
async function catalogLag(db: Db, store: EventStore): Promise<number | undefined> {
  if (store.kind !== 'postgres') return undefined;
  const r = await sql<{ checkpoint: string | null }>`select checkpoint from es_consumer_groups where group_name = ${CATALOG_GROUP}`.execute(
    db,
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const after = row.checkpoint === null ? undefined : parsePosition(row.checkpoint);
  return store.countAfter(after, { categories: [...CATALOG_CATEGORIES] }, LAG_CAP);
}
