// Wakes the event feed's long polls (GET /api/v1/events?wait=) when the feed may have grown.
// The projection's every batch moves its checkpoint and announces `schema|event-feed|version|ids`
// by NOTIFY in the batch's transaction (projections/checkpoints.ts): delivered at commit, and the
// ids are the tenants that got events, so a tenant's long polls sleep through other tenants'
// events. On PostgreSQL this process LISTENs on that channel (one connection, opened on the first
// long poll); while the LISTEN is down, and on the embedded database (no other process, no LISTEN
// through the pool), one shared query of the checkpoint's version every POLL_MS wakes everyone when
// it moves. Every fresh start of that poll, and every return of the LISTEN, wakes everyone once: a
// commit in the gap would otherwise go unheard.
//
// A wake-up is a hint: the waiter reads its page again. A waiter arms before it reads, so a commit
// between its read and its sleep still wakes it.
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Db } from '../../infra/database.js';
import { ReconnectingListener } from '../../infra/listener.js';
import { READ_MODELS_CHANNEL } from '../../../projections/checkpoints.js';

/** The shared poll's interval on the embedded database and while the LISTEN is down. */
export const POLL_MS = 10;

export interface Armed {
  /** Resolves at the next wake-up that may concern the tenant, at the timeout, or when the signal closes. */
  readonly woken: Promise<void>;
  cancel(): void;
}

export class FeedSignal {
  private readonly emitter = new EventEmitter();
  private waiting = 0;
  private closed = false;
  private listener: ReconnectingListener | undefined;
  private schema: Promise<string> | undefined;
  private poller: NodeJS.Timeout | undefined;
  private polledVersion: string | undefined;
  /** Bumped by every start and stop, so a tick in flight across a restart does not run on as a second loop. */
  private pollGeneration = 0;

  constructor(
    private readonly o: {
      db: Db;
      /** The projection whose checkpoint announces the feed. */
      projection: string;
      /** PostgreSQL: LISTEN there. Absent (the embedded database): poll. */
      connectionString?: string | undefined;
      onError?: (err: unknown) => void;
    },
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Undefined once the signal is closed (the server is shutting down): answer now, do not wait. */
  arm(tenantId: string, timeoutMs: number): Armed | undefined {
    if (this.closed) return undefined;
    let done!: () => void;
    const woken = new Promise<void>((resolve) => (done = resolve));
    const onWake = (tenants: ReadonlySet<string> | undefined): void => {
      if (tenants === undefined || tenants.has(tenantId)) settle();
    };
    const timer = setTimeout(() => settle(), Math.max(0, timeoutMs));
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.emitter.off('wake', onWake);
      this.waiting--;
      if (this.waiting === 0) this.stopPolling();
      done();
    };
    this.emitter.on('wake', onWake);
    this.waiting++;
    this.ensureWatching();
    return { woken, cancel: settle };
  }

  /** Releases every waiter now (server shutdown) and stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    this.wake(undefined);
    this.stopPolling();
    await this.listener?.close();
  }

  private wake(tenants: ReadonlySet<string> | undefined): void {
    this.emitter.emit('wake', tenants);
  }

  private ensureWatching(): void {
    if (this.o.connectionString !== undefined && this.listener === undefined) this.listen(this.o.connectionString);
    if (!this.listener?.up) this.startPolling();
  }

  /** The schema whose announcements concern this process (the channel is database-wide). */
  private ownSchema(): Promise<string> {
    return (this.schema ??= sql<{ schema: string }>`select current_schema() as schema`.execute(this.o.db).then((r) => r.rows[0]!.schema));
  }

  private listen(connectionString: string): void {
    this.listener = new ReconnectingListener({
      connectionString,
      channel: READ_MODELS_CHANNEL,
      onNotification: (payload) =>
        void this.heard(payload).catch((err: unknown) => {
          this.schema = undefined; // asked again on the next connection
          this.o.onError?.(err);
          this.wake(undefined);
        }),
      onUp: () => {
        this.stopPolling();
        this.wake(undefined);
      },
      onDown: (err) => {
        if (err) this.o.onError?.(err);
        if (this.waiting > 0) this.startPolling();
      },
      onError: (err) => this.o.onError?.(err),
    });
    void this.listener.start();
  }

  private async heard(payload: string): Promise<void> {
    const [schema, name, , ids] = payload.split('|');
    if (name !== this.o.projection || schema !== (await this.ownSchema())) return;
    this.wake(ids === undefined || ids === '*' ? undefined : new Set(ids.split(',')));
  }

  private startPolling(): void {
    if (this.poller || this.closed || this.waiting === 0) return;
    this.polledVersion = undefined;
    const generation = ++this.pollGeneration;
    const tick = async (): Promise<void> => {
      try {
        const row = await this.o.db
          .selectFrom('projection_checkpoints')
          .select(sql<string>`version::text`.as('version'))
          .where('name', '=', this.o.projection)
          .executeTakeFirst();
        // A reading that outlived its poll (stopped meanwhile: the LISTEN came up, or nobody waits)
        // wakes nobody: its "first reading" would wake waiters that armed after the stop for nothing.
        if (generation !== this.pollGeneration) return;
        const version = row?.version ?? '';
        // The first reading wakes everyone too: whatever committed before it went unheard.
        if (version !== this.polledVersion) this.wake(undefined);
        this.polledVersion = version;
      } catch (err) {
        this.o.onError?.(err);
      }
      if (generation === this.pollGeneration) this.poller = setTimeout(() => void tick(), POLL_MS);
    };
    this.poller = setTimeout(() => void tick(), 0);
  }

  private stopPolling(): void {
    this.pollGeneration++;
    if (this.poller) clearTimeout(this.poller);
    this.poller = undefined;
  }
}
