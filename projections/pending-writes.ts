// Statements a projection sends on its batch's transaction without waiting for each one: the
// connection runs them in order while Node goes on folding the rest of the batch, so the database
// writes one part of a large batch (a rebuild's 5,000 events) while the next part is folded, instead
// of all the folding and then all the writing (docs/benchmarks.md, session 10).

import { setImmediate as nextTurn } from 'node:timers/promises';

export class PendingWrites {
  private readonly sent: Promise<unknown>[] = [];

  send(write: Promise<unknown>): void {
    write.catch(() => undefined); // reported by around(); never an unhandled rejection meanwhile
    this.sent.push(write);
  }

  /**
   * One turn of the event loop, before folding the next part: the connection runs one statement at a
   * time, and the next queued one goes out only when the previous reply has been handled, which a
   * synchronous fold of the next part would hold back until the whole batch was folded.
   */
  async turn(): Promise<void> {
    await nextTurn();
  }

  /**
   * Runs `fold` (which sends writes), then waits for them all: on success it fails with the first
   * failed write; when `fold` throws, it waits for what was sent and rethrows. The wait is needed
   * either way: Kysely's rollback does not queue behind the statements waiting for the transaction's
   * connection, so a write still queued when the error came out would run after the rollback, outside
   * the transaction, and stay (batch-parts.test.ts).
   */
  static async around<T>(fold: (writes: PendingWrites) => Promise<T>): Promise<T> {
    const writes = new PendingWrites();
    let result: T;
    try {
      result = await fold(writes);
    } finally {
      await Promise.allSettled(writes.sent);
    }
    await Promise.all(writes.sent); // the first failed write, in the order sent
    return result;
  }
}
