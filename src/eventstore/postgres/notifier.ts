// Tells other processes that events were appended: one NOTIFY after commit, coalesced. The first
// append after a quiet spell notifies at once; appends during a NOTIFY's round trip and the short
// cooldown after it share one more NOTIFY. Without the cooldown a busy store sent nearly one NOTIFY
// per append (15% of append throughput, docs/benchmarks.md); with it, at most one per COOLDOWN_MS,
// which is all a listener needs: it is a hint, and listeners also poll.
// The embedded database has no other process to tell (in-process subscribers are woken directly).
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../infra/database.js';
import { NOTIFY_CHANNEL } from './append.js';

const COOLDOWN_MS = 10;

export class Notifier {
  private busy = false;
  private due = false;
  private inFlight: Promise<void> | undefined;
  private cooldown: NodeJS.Timeout | undefined;
  private closed = false;

  /** `origin` goes out as the payload, so this process's own listener can tell its NOTIFYs from others'. */
  constructor(
    private readonly handle: DatabaseHandle,
    private readonly origin: string,
    private readonly onError?: (err: unknown) => void,
  ) {}

  nudge(): void {
    if (this.handle.kind === 'pglite' || this.closed) return;
    if (this.busy) {
      this.due = true;
      return;
    }
    this.busy = true;
    this.inFlight = sql`select pg_notify(${NOTIFY_CHANNEL}, ${this.origin})`
      .execute(this.handle.db)
      .then(
        () => undefined,
        (err: unknown) => this.onError?.(err),
      )
      .finally(() => {
        this.inFlight = undefined;
        this.cooldown = setTimeout(() => {
          this.cooldown = undefined;
          this.busy = false;
          if (this.due) {
            this.due = false;
            this.nudge();
          }
        }, COOLDOWN_MS);
        this.cooldown.unref();
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.due = false;
    await this.inFlight;
    if (this.cooldown) clearTimeout(this.cooldown);
  }
}
