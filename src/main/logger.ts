// The server process's logger: pino writing JSON lines to stdout without a write(2) per line on the
// request path. pino's default destination starts a write for each line as it comes, which with
// pino's serialisation was about 6% of a GET's CPU (issue 13). Here lines are gathered in
// memory and written in pieces of HANDOVER_CHARS, or MAX_WAIT_MS after the first line of a quiet
// spell: one write(2) per piece, hundreds of lines. Handing each line, or each event-loop turn's
// lines, to a writer costs more than gathering it (docs/benchmarks.md, sessions 8 and 9). The fields
// of each line are unchanged.
//
// The piece itself is written synchronously (docs/decisions.md, session 11). A write left in
// libuv's thread pool cannot be waited for by a process that exits, so with sonic-boom writing
// asynchronously an exit wrote its last pieces beside or before one still waiting in the pool: lines
// out of order, cut into each other or missing (seen in CI). Written synchronously, every piece is
// whole and in order, and an exit writes the last one before the process ends. The price: a log
// reader that stops reading holds up the process once its pipe is full (pino's synchronous mode;
// its asynchronous default would instead hold the lines in memory without bound).
//
// Lines still in memory when the process ends: `flush` writes them (the graceful shutdown awaits it,
// start.ts); on any other exit (process.exit after a failed start, an uncaught exception) an exit
// hook writes them. A death that runs no exit hook (kill -9, the kernel's out-of-memory killer, a
// signal with no handler) loses those still in memory, at most MAX_WAIT_MS of them. A destination
// that fails (stdout closed: EPIPE; a full disk) is dropped with the lines from then on, and stderr
// is told once.
import { writeSync } from 'node:fs';
import pino, { type DestinationStream, type Logger } from 'pino';
import { plainJsonLogger } from '../infra/plain-json-logger.js';
import type { LogLevel } from '../config/config.js';

/** Characters gathered before they are written: one write(2) per piece under load. */
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
  // pino's own sonic-boom, synchronous: it retries a full non-blocking pipe (EAGAIN) and stops
  // writing on EPIPE.
  const sonic = pino.destination({ dest, sync: true });
  let failed = false;
  sonic.on('error', (err: Error) => {
    if (failed) return;
    failed = true;
    try {
      // Synchronous: process.stderr would report a closed stderr as an unhandled 'error' event.
      writeSync(2, `log destination failed, log lines are dropped from now on: ${err.message}\n`);
    } catch {
      // stderr is gone too.
    }
  });
  let pending: string[] = [];
  let pendingChars = 0;
  let timer: NodeJS.Timeout | undefined;
  const writeOut = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.length === 0) return;
    const piece = pending.join('');
    pending = [];
    pendingChars = 0;
    // After a failure sonic-boom would keep every later piece, retrying the failed one first (EPIPE
    // aside, which pino's destination turns into a no-op): they are dropped instead.
    if (!failed) sonic.write(piece);
  };
  process.on('exit', () => {
    try {
      writeOut();
    } catch {
      // Not open, or stdout gone: nothing more can be done while exiting.
    }
  });
  return {
    stream: {
      write(line: string): void {
        pending.push(line);
        pendingChars += line.length;
        if (pendingChars >= HANDOVER_CHARS) writeOut();
        // Not unref'd: a process that ends on its own first writes its last lines.
        else if (timer === undefined) timer = setTimeout(writeOut, MAX_WAIT_MS);
      },
    },
    flush: () => {
      writeOut();
      return Promise.resolve();
    },
  };
}

export interface ProcessLogger {
  logger: Logger;
  /** Writes what is buffered and resolves once it is written (graceful shutdown, after the startup lines). */
  flush(): Promise<void>;
}

export function createProcessLogger(level: LogLevel, dest: number | string = 1): ProcessLogger {
  const destination = createLogDestination(dest);
  return { logger: plainJsonLogger(level, destination.stream), flush: destination.flush };
}
