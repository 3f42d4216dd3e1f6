// Statements a projection sends on its batch's transaction without waiting for each one: the
// connection runs them in order while Node goes on folding the rest of the batch, so the database
// writes one part of a large batch (a rebuild's 5,000 events) while the next part is folded, instead
// of all the folding and then all the writing (docs/benchmarks.md, session 10).

import { setImmediate as nextTurn } from 'node:timers/promises';

export class PendingWrites {
  private readonly sent: Promise<unknown>[] = [];

  send(write: Promise<unknown>): void {
    write.catch(() => undefined); // reported by done(); never an unhandled rejection meanwhile
    this.sent.push(write);
  }

  /**
   * One turn of the event loop, before folding the next part: a query builder hands its statement
   * to the connection only after a few promise steps, which a synchronous fold would hold back until
   * the whole batch was folded. Not taken after the last part: a live batch waits for nothing more.
   */
  async turn(): Promise<void> {
    await nextTurn();
  }

  /** Waits for every write sent, failed or not: nothing is left running into a rollback. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.sent);
  }

  /** Fails with the first failed write. */
  async done(): Promise<void> {
    await Promise.all(this.sent);
  }

  /**
   * Runs `fold` (which sends writes), then waits for them all: on success it fails with the first
   * failed write; when `fold` throws, it waits for what was sent and rethrows.
   */
  static async around<T>(fold: (writes: PendingWrites) => Promise<T>): Promise<T> {
    const writes = new PendingWrites();
    let result: T;
    try {
      result = await fold(writes);
    } finally {
      await writes.settled();
    }
    await writes.done();
    return result;
  }
}
