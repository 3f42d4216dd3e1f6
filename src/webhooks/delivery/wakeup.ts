// Wakes the dispatchers the moment new deliveries are due, instead of waiting for their next poll,
// so the time from an event's commit to the partner's receipt is one projector step plus one
// claim. In-process only: the catalog projector always runs next to a dispatcher (ROLE all or
// webhooks). Other writers (recover from an API-only process) are picked up by the poll. One
// instance per process, created by the composition root and passed to the projector, the
// dispatchers and the delivery routes.
//
// A generation counter instead of a bare event: a wake-up that arrives while the dispatcher is
// busy claiming is not lost, because the dispatcher compares the generation it saw before claiming.
import { EventEmitter } from 'node:events';

export class DeliveryWakeup {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private generation = 0;

  wake(): void {
    this.generation++;
    this.emitter.emit('due');
  }

  /** The current generation, to pass to waitForWork after a claim. */
  seen(): number {
    return this.generation;
  }

  /** Resolves after `ms`, on abort, or on a wake-up; at once when one happened since `seen`. */
  waitForWork(ms: number, signal: AbortSignal, seen: number): Promise<void> {
    if (this.generation !== seen || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.emitter.off('due', done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.emitter.once('due', done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
