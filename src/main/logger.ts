// The server process's logger: pino writing JSON lines to stdout through an asynchronous
// destination. A synchronous destination (pino's default) makes one write(2) per line on the
// request path, about 6% of a GET's CPU (issue 13; docs/benchmarks.md, session 8). Here lines are
// gathered in memory and written in batches of at least MIN_LENGTH bytes off the request path;
// a quiet process still writes within PERIODIC_FLUSH_MS. The fields of each line are unchanged.
//
// Lines still in memory when the process ends: `flush` writes them and waits for the write, and
// the graceful shutdown awaits it before exiting (start.ts). On any other exit (process.exit after
// a failed start, an uncaught exception) pino's own exit hook writes the buffer synchronously, as
// far as an exit allows (pino.final is gone since pino 9; a write already handed to the thread
// pool when the process dies can be lost).
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/config.js';

/** Bytes gathered before a write: a dozen request lines at once under load. */
export const MIN_LENGTH = 4096;
/** A line waits at most this long on a quiet process. */
export const PERIODIC_FLUSH_MS = 200;

export interface ProcessLogger {
  logger: Logger;
  /** Writes what is buffered and resolves once it is written (graceful shutdown, after the startup lines). */
  flush(): Promise<void>;
}

/** `dest`: a file descriptor (stdout by default) or a file path (benchmarks, tests). */
export function createProcessLogger(level: LogLevel, dest: number | string = 1): ProcessLogger {
  const destination = pino.destination({ dest, sync: false, minLength: MIN_LENGTH, periodicFlush: PERIODIC_FLUSH_MS });
  const logger = pino({ level }, destination as DestinationStream);
  return { logger, flush: () => flushDestination(logger) };
}

/** pino's flush waits for the destination's drain when it buffers (minLength > 0), as here. */
function flushDestination(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    logger.flush((err) => {
      // A log that cannot be written must not hold up a shutdown.
      void err;
      resolve();
    });
  });
}
