// The server process's logger: pino writing JSON lines to stdout without a write(2) per line on the
// request path. pino's default destination is synchronous: one write per line, which with pino's
// serialisation was about 6% of a GET's CPU (issue 13). Here the lines of one event-loop turn are
// joined and handed to pino's asynchronous destination (sonic-boom) as one write, after the turn;
// sonic-boom writes off the main thread and copes with a slow or non-blocking stdout. Handing it
// each line instead costs about as much as the synchronous write: it measures and re-encodes its
// buffer per write (docs/benchmarks.md, session 8). The fields of each line are unchanged.
//
// Lines still in memory when the process ends: `flush` hands them over and waits for the write;
// the graceful shutdown awaits it (start.ts). On any other exit (process.exit after a failed start,
// an uncaught exception) an exit hook writes them synchronously, as far as an exit allows
// (pino.final is gone since pino 9; a write already in the thread pool when the process dies can
// be lost).
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/config.js';

/** Bytes sonic-boom gathers before a write when lines come faster than one write per turn. */
export const MIN_LENGTH = 4096;
/** A line waits at most this long in sonic-boom on a quiet process. */
export const PERIODIC_FLUSH_MS = 200;

export interface LogDestination {
  stream: DestinationStream;
  /** Writes what is buffered and resolves once it is written. */
  flush(): Promise<void>;
}

/** `dest`: a file descriptor (stdout by default) or a file path (benchmarks, tests). */
export function createLogDestination(dest: number | string = 1): LogDestination {
  const sonic = pino.destination({ dest, sync: false, minLength: MIN_LENGTH, periodicFlush: PERIODIC_FLUSH_MS });
  let lines: string[] = [];
  let scheduled = false;
  const handOver = (): void => {
    scheduled = false;
    if (lines.length === 0) return;
    const batch = lines.join('');
    lines = [];
    sonic.write(batch);
  };
  // After pino's own exit hook (registered with the destination, above): hand over, then write.
  process.on('exit', () => {
    try {
      handOver();
      sonic.flushSync();
    } catch {
      // Not open yet, or stdout gone: nothing more can be done while exiting.
    }
  });
  return {
    stream: {
      write(line: string): void {
        lines.push(line);
        if (!scheduled) {
          scheduled = true;
          setImmediate(handOver);
        }
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
