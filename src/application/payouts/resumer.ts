// Finishes payout processes nobody is running any more (the process that ran them was killed,
// or the batch was stored by an earlier version): at start and then every few seconds. It acts
// only on batches idle for a while, so it does not settle a batch under a request that is still
// reserving entries; if it ever does, that request releases what it paid that the settlement does
// not hold (processes.ts), and every step is idempotent, so two resumers at once are harmless.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../infra/database.js';
import type { EventStore } from '../../eventstore/port.js';
import { listStrayPayouts, listUnfinishedPayoutBatches } from '../../../projections/payout-batches/queries.js';
import { resumePayoutBatch } from './processes.js';
import { releaseEntry } from './steps.js';

/** A batch whose last step is older than this is taken to have lost its process. */
export const PAYOUT_RESUME_IDLE_MS = 30_000;
export const PAYOUT_RESUME_INTERVAL_MS = 5_000;

export async function resumeUnfinishedPayoutBatches(
  db: Db,
  store: EventStore,
  logger: Logger,
  idleMs = PAYOUT_RESUME_IDLE_MS,
): Promise<number> {
  let resumed = 0;
  for (const { id, tenantId } of await listUnfinishedPayoutBatches(db, idleMs)) {
    const ctx = { tenantId, now: new Date().toISOString(), newId: randomUUID, actor: { system: 'payout-resumer' } };
    try {
      const r = await resumePayoutBatch(store, id, ctx, randomUUID());
      logger.info({ batchId: id, status: r.batch.kind }, 'payout batch process resumed');
      resumed++;
    } catch (err) {
      // Tried again on the next round; one stuck batch does not hold up the others.
      logger.warn({ batchId: id, err }, 'payout batch process could not be resumed yet');
    }
  }
  return resumed + (await releaseStrayPayouts(db, store, logger, idleMs));
}

/**
 * Reconciliation: an entry paid in a settled batch that does not hold it is released, so it is
 * payable again (docs/payouts.md, "Remaining window"). The release is decided on the entry's
 * stream, so a read model that lags can only make it record nothing.
 */
export async function releaseStrayPayouts(db: Db, store: EventStore, logger: Logger, idleMs = PAYOUT_RESUME_IDLE_MS): Promise<number> {
  let released = 0;
  for (const { entryId, tenantId, batchId } of await listStrayPayouts(db, idleMs)) {
    const ctx = { tenantId, now: new Date().toISOString(), newId: randomUUID, actor: { system: 'payout-resumer' } };
    const steps = { store, ctx, correlationId: randomUUID(), positions: { batch: [], entries: [] }, batchRevision: -1 };
    const r = await releaseEntry(steps, entryId, batchId);
    if (r.ok) {
      logger.warn({ batchId, entryId }, 'released an entry paid in a batch that does not hold it');
      released++;
    }
  }
  return released;
}

export function startPayoutResumer(
  db: Db,
  store: EventStore,
  logger: Logger,
  opts: { intervalMs?: number; idleMs?: number } = {},
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const tick = (): void => {
    running = resumeUnfinishedPayoutBatches(db, store, logger, opts.idleMs)
      .catch((err: unknown) => logger.warn({ err }, 'payout resumer round failed; tried again'))
      .finally(() => {
        running = undefined;
        if (!stopped) {
          timer = setTimeout(tick, opts.intervalMs ?? PAYOUT_RESUME_INTERVAL_MS);
          timer.unref();
        }
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
