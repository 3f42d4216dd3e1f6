// Calls in flight when the adapter closes. A read on a disposed client never settles (its gRPC
// stream is gone without an end or an error), so every call races a promise that close() rejects:
// a caller waiting on the store gets an error instead of hanging, whatever the shutdown order.
export class ClosingGuard {
  private closedError: Error | undefined;
  private readonly rejecters = new Set<(err: Error) => void>();

  run<T>(call: () => Promise<T>): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    let reject!: (err: Error) => void;
    const closed = new Promise<never>((_, r) => {
      reject = r;
    });
    this.rejecters.add(reject);
    return Promise.race([call(), closed]).finally(() => this.rejecters.delete(reject));
  }

  close(): void {
    this.closedError ??= new Error('The EventStoreDB event store is closed');
    for (const reject of this.rejecters) reject(this.closedError);
    this.rejecters.clear();
  }
}
