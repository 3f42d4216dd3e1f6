// Wake-ups for subscribers. NOTIFY is a hint, never the source of truth: it is not stored for
// disconnected listeners, so every subscriber also re-polls on a timer. In-process appends wake
// subscribers directly, without a database round trip.
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { DatabaseHandle } from '../../infra/database.js';
import { NOTIFY_CHANNEL } from './append.js';

export class Wakeup {
  private readonly emitter = new EventEmitter();
  private client: pg.Client | undefined;
  private started: Promise<void> | undefined;

  constructor(private readonly handle: DatabaseHandle) {
    this.emitter.setMaxListeners(0);
  }

  /** Starts listening on first use; a failed LISTEN only means polling, so it is not fatal. */
  ensureListening(onError?: (err: unknown) => void): void {
    this.started ??= this.listen().catch((err) => onError?.(err));
  }

  private async listen(): Promise<void> {
    // The embedded database has no other process: in-process appends wake subscribers directly.
    if (this.handle.kind === 'pglite') return;
    const client = new pg.Client({ connectionString: this.handle.connectionString });
    client.on('error', () => undefined); // a dropped listener degrades to polling
    await client.connect();
    client.on('notification', () => this.notify());
    await client.query(`listen ${NOTIFY_CHANNEL}`);
    this.client = client;
  }

  notify(): void {
    this.emitter.emit('wake');
  }

  /** Resolves on the next wake-up or after `ms`, whichever comes first. */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    // An already-aborted signal never fires 'abort' again: without this, a subscription stopped
    // from inside its own last batch slept out the whole poll interval before stopping.
    if (signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.emitter.off('wake', done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.emitter.once('wake', done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  async close(): Promise<void> {
    await this.started;
    await this.client?.end().catch(() => undefined);
  }
}
