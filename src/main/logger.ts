// The server process's logger: pino writing JSON lines to stdout without a write(2) per line on the
// request path. pino's default destination is synchronous: one write per line, which with pino's
// serialisation was about 6% of a GET's CPU (issue 13). Here lines are gathered in memory and handed
// to pino's asynchronous destination (sonic-boom) in pieces of HANDOVER_CHARS, or after MAX_WAIT_MS
// on a quiet process; sonic-boom writes each piece off the main thread as it comes, and copes with
// a slow or non-blocking stdout. Handing it each line, or each event-loop turn's lines, costs more:
// it measures its pending buffer on every write and starts a write(2) as soon as it holds a few
// kilobytes (docs/benchmarks.md, sessions 8 and 9). The fields of each line are unchanged.
//
// Lines still in memory when the process ends: `flush` hands them over and waits for the write;
// the graceful shutdown awaits it (start.ts). On any other exit (process.exit after a failed start,
// an uncaught exception) an exit hook writes them synchronously, as far as an exit allows
// (pino.final is gone since pino 9; a write already in the thread pool when the process dies can
// be lost, and so can lines still in memory on a kill -9: at most MAX_WAIT_MS of them).
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/config.js';

/** Characters gathered before they go to the writer: one write(2) per piece under load. */
export const HANDOVER_CHARS = 64 * 1024;
/** A line waits at most this long in memory on a quiet process. */
export const MAX_WAIT_MS = 100;

export interface LogDestination {
  stream: DestinationStream;
  /** Writes what is buffered and resolves once it is written. */
  flush(): Promise<void>;
}

/** `dest`: a file descriptor (stdout by default) or a file path (benchmarks, tests). */
export function createLogDestination(dest: number | string = 1): LogDestination {
  // minLength 1: each piece is written as it comes (0 would make sonic-boom's flush return before
  // the write is done).
  const sonic = pino.destination({ dest, sync: false, minLength: 1 });
  let pending: string[] = [];
  let pendingChars = 0;
  let timer: NodeJS.Timeout | undefined;
  const handOver = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.length === 0) return;
    const piece = pending.join('');
    pending = [];
    pendingChars = 0;
    sonic.write(piece);
  };
  // After pino's own exit hook (registered with the destination, above): hand over, then write.
  // With no minimum left, the piece stays in sonic-boom's buffer instead of starting an
  // asynchronous write that an exiting process would not wait for, and flushSync writes it
  // (`minLength` is the instance's own field, not in sonic-boom's types). process-logger.test.ts
  // checks that an exiting process leaves every line; the race with an asynchronous write it
  // guards against does not reproduce there (the thread pool finishes first).
  process.on('exit', () => {
    try {
      (sonic as unknown as { minLength: number }).minLength = Infinity;
      handOver();
      sonic.flushSync();
    } catch {
      // Not open yet, or stdout gone: nothing more can be done while exiting.
    }
  });
  return {
    stream: {
      write(line: string): void {
        pending.push(line);
        pendingChars += line.length;
        if (pendingChars >= HANDOVER_CHARS) handOver();
        // Not unref'd: a process that ends on its own first hands its last lines over (pino ends
        // the destination on beforeExit, after which nothing more can be written).
        else if (timer === undefined) timer = setTimeout(handOver, MAX_WAIT_MS);
      },
    },
    flush: () =>
      new Promise((resolve) => {
        handOver();
        // sonic-boom's flush waits for the drain of what it holds (minLength > 0, as here). A log
        // that cannot be written must not hold up a shutdown: its error is not waited on.
        sonic.flush(() => resolve());
      }),
  };
}

export interface ProcessLogger {
  logger: Logger;
  /** Writes what is buffered and resolves once it is written (graceful shutdown, after the startup lines). */
  flush(): Promise<void>;
}

export function createProcessLogger(level: LogLevel, dest: number | string = 1): ProcessLogger {
  const destination = createLogDestination(dest);
  return { logger: pino({ level }, destination.stream), flush: destination.flush };
}
