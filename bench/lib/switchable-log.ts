// A logger whose level a benchmark switches between rounds, so that logging's cost is measured on
// one running app against a silent baseline in the same run: silent, or info through the server's
// destination (src/main/logger.ts: 64 KB pieces, each written at once) to a file.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { createLogDestination } from '../../src/main/logger.js';
import { plainJsonLogger } from '../../src/infra/plain-json-logger.js';

export type LogMode = 'silent' | 'info';

export interface SwitchableLog {
  logger: Logger;
  /** Takes effect for requests that start afterwards (Fastify's request loggers are children made per request). */
  set(mode: LogMode): void;
  /** Lines written so far (a check that the info rounds did log). */
  lines(): number;
  /** The first line written, as logged (a request's line: what the per-line measurement repeats). */
  firstLine(): string | undefined;
  close(): void;
}

export function switchableLog(): SwitchableLog {
  const file = path.join(tmpdir(), `travelog-bench-${process.pid}-${Date.now()}.log`);
  const destination = createLogDestination(file);
  let lines = 0;
  let first: string | undefined;
  // Plain, as the server's own logger is (src/main/logger.ts).
  const logger = plainJsonLogger('silent', {
    write(line: string) {
      lines++;
      first ??= line;
      destination.stream.write(line);
    },
  });
  return {
    logger,
    set(mode) {
      logger.level = mode;
    },
    lines: () => lines,
    firstLine: () => first,
    close() {
      void destination.flush();
      rmSync(file, { force: true });
    },
  };
}
