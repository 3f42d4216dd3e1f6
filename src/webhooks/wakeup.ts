// Wakes the dispatcher the moment new deliveries are due, instead of waiting for its next poll,
// so the time from an event's commit to the partner's receipt is one projector step plus one
// claim. In-process only: the catalog projector always runs next to a dispatcher (ROLE all or
// webhooks). Other writers (recover from an API-only process) are picked up by the poll.
//
// A generation counter instead of a bare event: a wake-up that arrives while the dispatcher is
// busy claiming is not lost, because the dispatcher compares the generation it saw before claiming.
import { EventEmitter } from 'node:events';

const emitter = new EventEmitter();
emitter.setMaxListeners(0);
let generation = 0;

export function wakeDispatchers(): void {
  generation++;
  emitter.emit('due');
}

export function wakeGeneration(): number {
  return generation;
}

/** Resolves after `ms`, on abort, or on a wake-up; at once when one happened since `seen`. */
export function waitForWork(ms: number, signal: AbortSignal, seen: number): Promise<void> {
  if (generation !== seen || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      emitter.off('due', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    emitter.once('due', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
