// The server process's logger: pino writing JSON lines to stdout without a write(2) per line on the
// request path. pino's default destination starts a write for each line as it comes, which with
// pino's serialisation was about 6% of a GET's CPU (issue 13). Here each line is encoded into a
// piece of PIECE_BYTES as it comes, and the piece is written when it is full, or MAX_WAIT_MS after the
// first line of a quiet spell: one write(2) per piece, hundreds of lines. The fields of each line are
// unchanged.
//
// Lines go into a Buffer at once rather than a list of strings joined later (sessions 8–18): a
// string held until its piece is full outlives a young-generation collection or two and is copied
// each time, then the joined piece was measured over again and encoded by the writer. Under load
// that made the pieces cost more per GET than a write per line (docs/benchmarks.md, session 19).
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
import type { LogLevel } from '../config/config.js';

/** Bytes gathered before they are written: one write(2) per piece under load. */
export const PIECE_BYTES = 64 * 1024;
/** A UTF-16 code unit takes at most this many bytes in UTF-8: room enough for a line whatever it holds. */
const MAX_BYTES_PER_UNIT = 3;
/** A line waits at most this long in memory on a quiet process. */
export const MAX_WAIT_MS = 100;

export interface LogDestination {
  stream: DestinationStream;
  /** Writes what is buffered and resolves once it is written. */
  flush(): Promise<void>;
}

/** `dest`: a file descriptor (stdout by default) or a file path (benchmarks, tests). */
export function createLogDestination(dest: number | string = 1): LogDestination {
  // pino's own sonic-boom, synchronous, taking Buffers: it retries a full non-blocking pipe (EAGAIN)
  // and stops writing on EPIPE.
  const sonic = pino.destination({ dest, sync: true, contentMode: 'buffer' });
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
  // sonic-boom's types name strings only; in contentMode 'buffer' its write takes Buffers (its README).
  const writeBytes = sonic.write.bind(sonic) as unknown as (bytes: Buffer) => boolean;
  // A new piece after each handover: the writer may keep the one it was given (a retried EAGAIN).
  let piece = Buffer.allocUnsafe(PIECE_BYTES);
  let used = 0;
  let timer: NodeJS.Timeout | undefined;
  const hand = (bytes: Buffer): void => {
    // After a failure sonic-boom would keep every later piece, retrying the failed one first (EPIPE
    // aside, which pino's destination turns into a no-op): they are dropped instead.
    if (!failed) writeBytes(bytes);
  };
  const writeOut = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (used === 0) return;
    const full = piece.subarray(0, used);
    piece = Buffer.allocUnsafe(PIECE_BYTES);
    used = 0;
    hand(full);
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
        const room = line.length * MAX_BYTES_PER_UNIT;
        if (used + room > PIECE_BYTES) {
          writeOut();
          // A line longer than a piece (a huge error) goes out on its own, after the lines before it.
          if (room > PIECE_BYTES) return hand(Buffer.from(line, 'utf8'));
        }
        used += piece.write(line, used, 'utf8');
        // Not unref'd: a process that ends on its own first writes its last lines.
        if (timer === undefined) timer = setTimeout(writeOut, MAX_WAIT_MS);
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
  return { logger: pino({ level }, destination.stream), flush: destination.flush };
}
