// Reading the client's streams item by item. Every read and subscription of @eventstore/db-client
// is a Node Readable fed by a gRPC call. Pulling with read() instead of `for await` gives three
// things this adapter needs: the number of items already buffered (catch-up batching and the
// caught-up marker depend on it), waits that an AbortSignal can end, and control over the gRPC
// call itself. Breaking out of `for await` only destroys the Readable: the call would stay open
// (the client opens streams without a deadline), and a late error emitted on the destroyed stream
// would have no listener and crash the process.
import type { Readable } from 'node:stream';
import type { StreamingRead } from '@eventstore/db-client';

const ignore = (): void => undefined;

export class Puller<T> {
  private wake: (() => void) | undefined;
  private failure: { err: unknown } | undefined;
  private ended = false;

  constructor(
    private readonly stream: Readable,
    private readonly signal?: AbortSignal,
  ) {
    stream.on('readable', this.poke);
    stream.on('end', this.onEnd);
    stream.on('close', this.onEnd);
    stream.on('error', this.onError);
    signal?.addEventListener('abort', this.poke);
  }

  /** Wakes a pending changed() (new data, end, error, abort, or an outside event such as caught-up). */
  readonly poke = (): void => {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    this.poke();
  };

  private readonly onError = (err: unknown): void => {
    this.failure ??= { err };
    this.poke();
  };

  /** Items received and not read yet. */
  get buffered(): number {
    return this.stream.readableLength;
  }

  /** The stream ended (or was destroyed) and nothing readable is left. */
  get finished(): boolean {
    return this.ended && (this.stream.destroyed || this.stream.readableLength === 0);
  }

  /** The next buffered item, or undefined when none is buffered right now. Throws the stream's error. */
  tryRead(): T | undefined {
    if (this.failure) throw this.failure.err;
    const item: unknown = this.stream.read();
    // The client's streams are in object mode and carry only its own event objects.
    return item === null ? undefined : (item as T);
  }

  /** Resolves once something may have changed. Callers read until tryRead() is empty before waiting. */
  async changed(): Promise<void> {
    if (this.signal?.aborted || this.failure || this.ended || this.stream.readableLength > 0) return;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }

  /** Detaches; a no-op error listener stays, because the gRPC side may still report after we left. */
  dispose(): void {
    this.stream.off('readable', this.poke);
    this.stream.off('end', this.onEnd);
    this.stream.off('close', this.onEnd);
    this.stream.off('error', this.onError);
    this.stream.on('error', ignore);
    this.signal?.removeEventListener('abort', this.poke);
    this.poke();
  }
}

/**
 * Visits the items of a finite read in order until `visit` returns false or the read ends. A read
 * left early is cancelled, which ends its gRPC call.
 */
export async function readEach<T>(stream: StreamingRead<T>, visit: (item: T) => boolean): Promise<void> {
  const puller = new Puller<T>(stream);
  try {
    for (;;) {
      const item = puller.tryRead();
      if (item !== undefined) {
        if (!visit(item)) return;
        continue;
      }
      if (puller.finished) return;
      await puller.changed();
    }
  } finally {
    const complete = puller.finished;
    puller.dispose();
    if (!complete) await stream.cancel().catch(ignore);
  }
}
