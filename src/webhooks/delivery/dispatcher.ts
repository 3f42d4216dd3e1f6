// The dispatcher: claims due deliveries and runs their attempts, up to `concurrency` at a time.
//
// It claims only as many rows as it has free slots, so a claimed row never waits in memory while
// its lease runs down. When nothing is due it sleeps until the earliest Pending row falls due (at
// most `pollMs`), or until the catalog projector wakes it. The lease is the attempt timeout plus a
// margin for recording, so a live worker always records before its lease can expire.
import type { Logger } from 'pino';
import { batchingRecorder } from './attempt-recorder.js';
import { cancelClaimed, claimDue, nextDueAt } from './outbox.js';
import { deliverOnce, type DeliverDeps } from './deliver.js';
import type { DeliveryWakeup } from './wakeup.js';

export interface DispatcherOptions {
  /** Attempts in flight at once, over all subscriptions. */
  concurrency?: number;
  /** Longest sleep when nothing is due (other processes' inserts and lease expiries are found by polling). */
  pollMs?: number;
}

export interface Dispatcher {
  /** Graceful: no new claims, attempts in flight finish and are recorded. */
  stop(): Promise<void>;
  /**
   * Simulates the process dying (tests): stops at once and records nothing for attempts in flight,
   * which still finish sending. Their rows fall due again when the lease expires.
   */
  crash(): void;
}

export function leaseMsFor(timeoutMs: number): number {
  return timeoutMs + Math.max(2000, Math.round(timeoutMs / 2));
}

export function startDispatcher(deps: DeliverDeps & { logger: Logger; wakeup: DeliveryWakeup }, opts: DispatcherOptions = {}): Dispatcher {
  const concurrency = opts.concurrency ?? 64;
  const pollMs = opts.pollMs ?? 1000;
  const leaseMs = leaseMsFor(deps.config.webhookTimeoutMs);
  const abort = new AbortController();
  const aborted = new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve(), { once: true }));
  const inFlight = new Set<Promise<void>>();
  let crashed = false;
  // Attempts of a crashed dispatcher are never recorded: the same effect as the process being gone.
  const recordingDeps: DeliverDeps = { ...deps, record: batchingRecorder(deps.db, { isDead: () => crashed }) };

  const runOne = (row: Parameters<typeof deliverOnce>[1]): void => {
    const work = row.subscription_deleted
      ? cancelClaimed(recordingDeps.db, row).then(() => undefined)
      : deliverOnce(recordingDeps, row, { manual: false });
    const p = work
      .then((r) => {
        if (!r) return;
        // A retry may now be due sooner than the sleep the loop chose before this attempt ended.
        if (r.status === 'Pending') deps.wakeup.wake();
        if (r.record.recorded && r.record.disabledNow) {
          deps.logger.warn(
            { subscriptionId: r.record.subscriptionId },
            'webhook subscription auto-disabled after consecutive exhausted deliveries',
          );
        }
      })
      .catch((err: unknown) => {
        if (!crashed)
          deps.logger.error({ err, deliveryId: row.id }, 'webhook delivery attempt failed to run; the lease will expire and it runs again');
      })
      .finally(() => {
        inFlight.delete(p);
        freed();
      });
    inFlight.add(p);
  };

  // Resolved whenever a slot frees up, so a full dispatcher claims again at once.
  let freed: () => void = () => undefined;
  const slotFreed = (): Promise<void> =>
    new Promise((resolve) => {
      freed = resolve;
    });

  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        const seen = deps.wakeup.seen();
        const free = concurrency - inFlight.size;
        if (free <= 0) {
          // Every attempt ends within its timeout, so a slot always frees up.
          await Promise.race([slotFreed(), aborted]);
          continue;
        }
        const now = new Date();
        const rows = await claimDue(deps.db, free, now, new Date(now.getTime() + leaseMs));
        if (abort.signal.aborted) break; // claimed rows fall due again after the lease
        for (const row of rows) runOne(row);
        if (rows.length === free) continue;
        const due = await nextDueAt(deps.db);
        const sleep = due === undefined ? pollMs : Math.min(pollMs, due.getTime() - Date.now());
        // A due row that could not be claimed is locked by another dispatcher's claim for a moment:
        // pause briefly instead of spinning on it.
        await deps.wakeup.waitForWork(rows.length === 0 ? Math.max(10, sleep) : sleep, abort.signal, seen);
      } catch (err) {
        deps.logger.error({ err }, 'webhook dispatcher loop error');
        await deps.wakeup.waitForWork(pollMs, abort.signal, deps.wakeup.seen());
      }
    }
  })();

  return {
    async stop() {
      abort.abort();
      await loop;
      await Promise.allSettled([...inFlight]);
    },
    crash() {
      crashed = true;
      abort.abort();
    },
  };
}
