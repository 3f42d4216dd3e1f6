// The dispatcher: claims due deliveries and runs their attempts, up to `concurrency` at a time.
//
// It claims only as many rows as it has free slots, so a claimed row never waits in memory while
// its lease runs down. When nothing is due it sleeps until the earliest Pending row falls due (at
// most `pollMs`), or until the catalog projector wakes it. The lease is the attempt timeout plus a
// margin for recording, so a live worker always records before its lease can expire.
//
// On a server each dispatcher also holds a liveness session (liveness.ts): its claims name the
// session, and every `releaseMs` it releases the leases of dispatchers whose session is gone, so a
// killed worker's rows are taken over in about a second instead of when the lease runs out.
import type { Logger } from 'pino';
import { batchingRecorder } from './attempt-recorder.js';
import { cancelClaimed, claimDue, nextDueAt } from './outbox.js';
import { deliverOnce, type DeliverDeps } from './deliver.js';
import type { DeliveryWakeup } from './wakeup.js';
import type { LivenessSession } from './liveness.js';

export interface DispatcherOptions {
  /** Attempts in flight at once, over all subscriptions. */
  concurrency?: number;
  /** Longest sleep when nothing is due (other processes' inserts and lease expiries are found by polling). */
  pollMs?: number;
  /** How often the leases of dispatchers whose liveness session is gone are released. */
  releaseMs?: number;
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

export interface DispatcherDeps extends DeliverDeps {
  logger: Logger;
  wakeup: DeliveryWakeup;
  /** Opens this dispatcher's liveness session (a server database); without it leases only expire. */
  openSession?: () => LivenessSession;
}

export function startDispatcher(deps: DispatcherDeps, opts: DispatcherOptions = {}): Dispatcher {
  const concurrency = opts.concurrency ?? 64;
  const pollMs = opts.pollMs ?? 1000;
  const releaseMs = opts.releaseMs ?? 1000;
  const leaseMs = leaseMsFor(deps.config.webhookTimeoutMs);
  const session = deps.openSession?.();
  const releasing = session ? releaseAbandonedEvery(session, releaseMs, leaseMs, deps) : undefined;
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
    // Claims made before the session holds its lock would carry no owner and wait out their lease
    // if this process died: the first claim waits for the session (bounded, as a down database is).
    if (session) await Promise.race([session.opened, aborted, new Promise((r) => setTimeout(r, leaseMs).unref())]);
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
        const rows = await claimDue(deps.db, free, now, new Date(now.getTime() + leaseMs), session?.owner() ?? null);
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
      await releasing?.stop();
      await loop;
      await Promise.allSettled([...inFlight]);
      // Only now: while attempts are in flight their rows stay owned by a live session.
      await session?.close();
    },
    crash() {
      crashed = true;
      abort.abort();
      // As when the process dies: the session ends, and with it the lock other dispatchers look for.
      void releasing?.stop();
      void session?.close();
    },
  };
}

/** Runs the release every `everyMs` (never two at once); a release that found rows wakes the claim loop. */
function releaseAbandonedEvery(
  session: LivenessSession,
  everyMs: number,
  leaseMs: number,
  deps: Pick<DispatcherDeps, 'logger' | 'wakeup'>,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = session
      .releaseAbandoned(leaseMs)
      .then((released) => {
        if (released === 0) return;
        deps.logger.info({ released }, 'webhook deliveries leased by a dispatcher that is gone released');
        deps.wakeup.wake();
      })
      .catch((err: unknown) => deps.logger.warn({ err }, 'releasing the leases of a dispatcher that is gone failed'))
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
