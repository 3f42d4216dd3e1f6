// Retention: delivery rows, with their attempts and payload bytes, are hard-deleted 30 days after
// they were created (spec, Limits), in batches so that no single statement holds many row locks or
// bloats one transaction. Deleted subscriptions whose last delivery is gone are removed with them.
// Runs daily in every webhooks process (deletes are idempotent, so two processes do no harm) and
// on demand through `npm run cli -- webhooks cleanup`.
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../infra/database.js';

export const RETENTION_DAYS = 30;
export const CLEANUP_BATCH = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CleanupResult {
  deliveriesDeleted: number;
  subscriptionsDeleted: number;
  olderThan: string;
}

export async function cleanupDeliveries(db: Db, opts: { now?: Date; batchSize?: number } = {}): Promise<CleanupResult> {
  const cutoff = new Date((opts.now ?? new Date()).getTime() - RETENTION_DAYS * DAY_MS);
  const batch = opts.batchSize ?? CLEANUP_BATCH;
  let deliveriesDeleted = 0;
  for (;;) {
    // Attempts go with their delivery (on delete cascade).
    const r = await sql`
      delete from webhook_deliveries where id in (
        select id from webhook_deliveries where created_at < ${cutoff} order by created_at limit ${batch})`.execute(db);
    const n = Number(r.numAffectedRows ?? 0);
    deliveriesDeleted += n;
    if (n < batch) break;
  }
  const s = await sql`
    delete from webhook_subscriptions s where s.deleted_at is not null and s.deleted_at < ${cutoff}
      and not exists (select 1 from webhook_deliveries d where d.subscription_id = s.id)`.execute(db);
  return { deliveriesDeleted, subscriptionsDeleted: Number(s.numAffectedRows ?? 0), olderThan: cutoff.toISOString() };
}

/** Runs the cleanup shortly after start and then every 24 hours; stop() cancels it and waits for a run in progress. */
export function scheduleDailyCleanup(db: Db, logger: Logger, opts: { firstRunDelayMs?: number } = {}): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = (): void => {
    running = cleanupDeliveries(db)
      .then((r) => {
        if (r.deliveriesDeleted > 0) logger.info(r, 'webhook delivery retention cleanup');
      })
      .catch((err: unknown) => logger.error({ err }, 'webhook delivery retention cleanup failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) arm(DAY_MS);
      });
  };
  const arm = (ms: number): void => {
    timer = setTimeout(run, ms);
    timer.unref();
  };
  arm(opts.firstRunDelayMs ?? 60_000);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
