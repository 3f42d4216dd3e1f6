// A logger whose level and destination a benchmark switches between rounds, so that logging's
// cost is measured on one running app against a silent baseline in the same run: silent, info
// through the server's destination (src/main/logger.ts: 64 KB pieces, each written at once), and
// info through one that writes each line synchronously as it comes. Both destinations append to one
// file (lines of the two may interleave out of order: nobody reads it). The pass-through `write` is
// the same one call in every mode.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createLogDestination } from '../../src/main/logger.js';

export type LogMode = 'silent' | 'info-pieces' | 'info-lines';

export interface SwitchableLog {
  logger: Logger;
  /** Takes effect for requests that start afterwards (Fastify's request loggers are children made per request). */
  set(mode: LogMode): void;
  /** Lines written so far in info modes (a check that the info rounds did log). */
  lines(): number;
  close(): void;
}

export function switchableLog(): SwitchableLog {
  const file = path.join(tmpdir(), `travelog-bench-${process.pid}-${Date.now()}.log`);
  const piecesDest = createLogDestination(file);
  const linesDest = pino.destination({ dest: file, sync: true });
  let current: { write(line: string): unknown } = piecesDest.stream;
  let lines = 0;
  const logger = pino(
    { level: 'silent' },
    {
      write(line: string) {
        lines++;
        current.write(line);
      },
    },
  );
  return {
    logger,
    set(mode) {
      current = mode === 'info-lines' ? linesDest : piecesDest.stream;
      logger.level = mode === 'silent' ? 'silent' : 'info';
    },
    lines: () => lines,
    close() {
      void piecesDest.flush();
      linesDest.end();
      rmSync(file, { force: true });
    },
  };
}
