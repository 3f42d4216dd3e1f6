// The server process's logger: pino writing JSON lines to stdout without a write(2) per line on the
// request path. pino's default destination is synchronous: one write per line, which with pino's
// serialisation was about 6% of a GET's CPU (issue 13). Here lines are gathered in memory and handed
// in pieces of HANDOVER_CHARS (or after MAX_WAIT_MS on a quiet process) to pino's own transport: a
// worker thread (thread-stream) that writes them with pino's asynchronous file destination. Handing
// each line over costs more than gathering it (docs/benchmarks.md, sessions 8 and 9). The fields of
// each line are unchanged.
//
// Why a transport and not sonic-boom on the main thread (docs/decisions.md, session 11): a process
// that exits while one of sonic-boom's writes waits in libuv's thread pool cannot wait for that
// write, so its exit hook wrote the later pieces first, or into the same pipe at the same time
// (out of order, lines cut into each other, or an exit that hung; seen in CI). The transport's own
// exit hook hands everything to the worker and blocks until the worker has written it and closed
// its destination (thread-stream `end`, up to 10 s), so an exit leaves every line, in order.
//
// Lines still in memory when the process ends: `flush` hands them over and waits for the worker's
// write; the graceful shutdown awaits it (start.ts). On any other exit (process.exit after a failed
// start, an uncaught exception) an exit hook that runs before the transport's hands them over. Only
// a kill -9 loses lines: those still in memory (at most MAX_WAIT_MS of them) and those the worker
// had not written yet.
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
    worker.write(piece);
  };
  // Prepended: exit listeners run in order, and the transport's (registered by pino.transport, or
  // earlier by another transport of this process) ends the worker, after which nothing is written.
  process.prependListener('exit', () => {
    try {
      handOver();
    } catch {
      // The worker is gone: nothing more can be done while exiting.
    }
  });
  // minLength 1: the worker's destination then answers a flush once the write is done (with 0,
  // sonic-boom's flush returns at once).
  const worker = pino.transport({ target: 'pino/file', options: { destination: dest, minLength: 1 } });
  // A destination that fails (stdout closed: EPIPE) must not take the process down with it: the
  // lines are lost from then on, and stderr is told once.
  let failed = false;
  worker.on('error', (err: Error) => {
    if (failed) return;
    failed = true;
    try {
      process.stderr.write(`log destination failed, log lines are dropped from now on: ${err.message}\n`);
    } catch {
      // stderr is gone too.
    }
  });
  return {
    stream: {
      write(line: string): void {
        pending.push(line);
        pendingChars += line.length;
        if (pendingChars >= HANDOVER_CHARS) handOver();
        // Not unref'd: a process that ends on its own first hands its last lines over.
        else if (timer === undefined) timer = setTimeout(handOver, MAX_WAIT_MS);
      },
    },
    flush: () =>
      new Promise((resolve) => {
        handOver();
        // Resolves once the worker has written what it held. A log that cannot be written must not
        // hold up a shutdown: its error is not waited on.
        worker.flush(() => resolve());
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
