// Tells other processes that events were appended: one NOTIFY after commit, coalesced (while one
// is on its way, further appends only mark that another is due). It is a hint: listeners also poll.
// The embedded database has no other process to tell (in-process subscribers are woken directly).
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../infra/database.js';
import { NOTIFY_CHANNEL } from './append.js';

export class Notifier {
  private inFlight: Promise<void> | undefined;
  private due = false;

  constructor(private readonly handle: DatabaseHandle, private readonly onError?: (err: unknown) => void) {}

  nudge(): void {
    if (this.handle.kind === 'pglite') return;
    if (this.inFlight) {
      this.due = true;
      return;
    }
    this.inFlight = sql`select pg_notify(${NOTIFY_CHANNEL}, '')`.execute(this.handle.db)
      .then(() => undefined, (err: unknown) => this.onError?.(err))
      .finally(() => {
        this.inFlight = undefined;
        if (this.due) {
          this.due = false;
          this.nudge();
        }
      });
  }

  async close(): Promise<void> {
    this.due = false;
    await this.inFlight;
  }
}
