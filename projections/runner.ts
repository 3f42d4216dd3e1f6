// Runs the projections: one catch-up subscription per projection from its stored checkpoint.
// Each batch is applied in one transaction that first locks the checkpoint row and checks it is
// where this runner left it; if another runner (a second projector, or a rebuild from the CLI)
// moved it, the batch is abandoned and the subscription restarts from the stored position. So
// any number of runners may run at once and every event still takes effect exactly once.
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../src/infra/database.js';
import { comparePositions, formatPosition, type EventStore, type Position, type Subscription } from '../src/eventstore/port.js';
import { advanceCheckpoint, ensureCheckpoint, lockCheckpoint, readCheckpoints, resetCheckpoint } from './checkpoints.js';
import type { Projection } from './projection.js';
import { retryWhileUnavailable } from '../src/infra/availability.js';

class CheckpointMoved extends Error {}

export interface ProjectionStatus {
  name: string;
  position: string | null;
  eventsProcessed: number;
  /** Visible events not yet applied, counted up to the cap. */
  lag: number;
}

export const BATCH_SIZE = 1000;
/**
 * A rebuild reads from zero, so every batch is full: larger batches fold more of one stream's events
 * into one row write (an entry's six events often span two batches of 1,000), and the per-batch
 * costs (checkpoint lock, row read) are paid less often. docs/benchmarks.md has the measurements.
 */
export const REBUILD_BATCH_SIZE = 5000;

export class ProjectionRunner {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly positions = new Map<string, Position | undefined>();
  /** Events applied by this runner per projection since its last (re)build: progress without a query. */
  private readonly applied = new Map<string, number>();
  private readonly progress = new EventEmitter();
  private running = false;

  constructor(private readonly deps: { db: Db; store: EventStore; logger: Logger; projections: readonly Projection[] }) {
    this.progress.setMaxListeners(0);
  }

  get projections(): readonly Projection[] {
    return this.deps.projections;
  }

  /** Subscribes every projection; a database that goes away meanwhile is waited for (with backoff), never fatal. */
  async start(): Promise<void> {
    this.running = true;
    await retryWhileUnavailable(
      async () => {
        for (const p of this.deps.projections) if (this.running && !this.subscriptions.has(p.name)) await this.startOne(p);
      },
      { onRetry: (err) => this.deps.logger.warn({ err }, 'starting projections: database unavailable, retrying') },
    );
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all([...this.subscriptions.values()].map((s) => s.stop()));
    this.subscriptions.clear();
  }

  private async startOne(p: Projection, batchSize = BATCH_SIZE): Promise<void> {
    const { db, store, logger } = this.deps;
    await ensureCheckpoint(db, p.name);
    const stored = (await readCheckpoints(db)).find((c) => c.name === p.name)?.position;
    this.positions.set(p.name, stored);
    // Another runner may have applied what a wait here is for (this one then lost the batch to it,
    // and restarts from the stored position): the wait learns of it now, not at its timeout.
    this.progress.emit('advanced', p.name);
    const log = logger.child({ projection: p.name });
    const sub = store.subscribeToAll({
      after: stored,
      filter: p.filter,
      batchSize,
      onBatch: async (events) => {
        const expected = this.positions.get(p.name);
        const last = events[events.length - 1]!.position;
        await db.transaction().execute(async (trx) => {
          const current = await lockCheckpoint(trx, p.name);
          if (current !== (expected ? formatPosition(expected) : null)) throw new CheckpointMoved();
          const changed = await p.apply(trx, events);
          await advanceCheckpoint(trx, p.name, last, events.length, changed ?? undefined);
        });
        this.positions.set(p.name, last);
        this.applied.set(p.name, (this.applied.get(p.name) ?? 0) + events.length);
        this.progress.emit('advanced', p.name);
      },
      onError: (err) => {
        if (err instanceof CheckpointMoved) {
          log.info('checkpoint moved by another runner; resubscribing from the stored position');
          this.restart(p).catch((e: unknown) => log.error({ err: e }, 'projection resubscription abandoned'));
          return;
        }
        log.error({ err }, 'projection batch failed; retrying from the same position');
      },
    });
    this.subscriptions.set(p.name, sub);
  }

  private async restart(p: Projection): Promise<void> {
    const sub = this.subscriptions.get(p.name);
    this.subscriptions.delete(p.name);
    await sub?.stop();
    // Called from a subscription's error path, so nothing awaits it: the database may be down just
    // now, and a failure here must neither be unhandled nor leave the projection without a subscription.
    await retryWhileUnavailable(
      async () => {
        if (this.running && !this.subscriptions.has(p.name)) await this.startOne(p);
      },
      {
        retryable: () => this.running,
        onRetry: (err) => this.deps.logger.warn({ err, projection: p.name }, 'projection resubscription failed; retrying'),
      },
    );
  }

  /**
   * Read-your-writes: resolves true once the projection has applied the event at `position`
   * (in this process, or by whichever runner owns it when this process only serves the API).
   */
  async waitFor(name: string, position: Position, timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const reached = (p: Position | undefined): boolean => p !== undefined && comparePositions(p, position) >= 0;
    if (this.subscriptions.has(name)) {
      if (reached(this.positions.get(name))) return true;
      return new Promise((resolve) => {
        let done = false;
        const onAdvance = (n: string): void => {
          if (n === name && reached(this.positions.get(name))) finish(true);
        };
        // At the deadline the stored checkpoint has the last word: another runner may have applied
        // the position while this one's subscription was still backing off before it noticed.
        const timer = setTimeout(() => {
          this.storedReached(name, reached).then(finish, () => finish(false));
        }, timeoutMs);
        const finish = (ok: boolean): void => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          this.progress.off('advanced', onAdvance);
          resolve(ok);
        };
        this.progress.on('advanced', onAdvance);
      });
    }
    while (Date.now() < deadline) {
      if (await this.storedReached(name, reached)) return true;
      await new Promise((r) => setTimeout(r, 15));
    }
    return false;
  }

  private async storedReached(name: string, reached: (p: Position | undefined) => boolean): Promise<boolean> {
    return reached((await readCheckpoints(this.deps.db)).find((c) => c.name === name)?.position);
  }

  async status(lagCap = 100_000): Promise<ProjectionStatus[]> {
    const checkpoints = await readCheckpoints(this.deps.db);
    return Promise.all(
      this.deps.projections.map(async (p) => {
        const cp = checkpoints.find((c) => c.name === p.name);
        return {
          name: p.name,
          position: cp?.position ? formatPosition(cp.position) : null,
          eventsProcessed: cp?.eventsProcessed ?? 0,
          lag: await this.deps.store.countAfter(cp?.position, p.filter, lagCap),
        };
      }),
    );
  }

  /**
   * Rebuild from position zero: empty the projection's tables and reset its checkpoint in one
   * transaction, then catch up. Runners elsewhere notice the moved checkpoint and follow.
   */
  async rebuild(name: string, onProgress?: (done: number, total: number) => void): Promise<{ events: number; seconds: number }> {
    const p = this.deps.projections.find((x) => x.name === name);
    if (!p) throw new Error(`Unknown projection "${name}"`);
    const { db, store } = this.deps;
    const started = performance.now();
    const total = await store.countAfter(undefined, p.filter, Number.MAX_SAFE_INTEGER);
    await this.subscriptions.get(name)?.stop();
    this.subscriptions.delete(name);
    await ensureCheckpoint(db, name);
    await db.transaction().execute(async (trx) => {
      await lockCheckpoint(trx, name);
      for (const table of p.tables) await sql`delete from ${sql.table(table)}`.execute(trx);
      await resetCheckpoint(trx, name);
    });
    const head = await store.headPosition(p.filter);
    this.applied.set(name, 0);
    await this.startOne(p, REBUILD_BATCH_SIZE);
    if (head) {
      await new Promise<void>((resolve) => {
        const check = (): void => {
          const at = this.positions.get(name);
          onProgress?.(this.applied.get(name) ?? 0, total);
          if (at && comparePositions(at, head) >= 0) {
            this.progress.off('advanced', check);
            resolve();
          }
        };
        this.progress.on('advanced', check);
        check();
      });
    }
    onProgress?.(total, total);
    // The rebuild's subscription goes; a running runner follows on with the live batch size.
    await this.subscriptions.get(name)?.stop();
    this.subscriptions.delete(name);
    if (this.running) await this.startOne(p);
    return { events: total, seconds: (performance.now() - started) / 1000 };
  }
}
