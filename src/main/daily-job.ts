// A job that runs once a day (first run shortly after start), logs failures and never throws:
// a missed sweep is retried the next day, a crashed process helps nobody.
import type { Logger } from 'pino';

export const DAY_MS = 24 * 3_600_000;

export function startDailyJob(
  name: string,
  logger: Logger,
  run: () => Promise<unknown>,
  opts: { firstRunMs?: number; intervalMs?: number } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout;
  let stopped = false;
  const tick = (): void => {
    running = run()
      .then((result) => logger.info({ job: name, result }, 'daily job done'))
      .catch((err: unknown) => logger.warn({ job: name, err }, 'daily job failed; retried tomorrow'))
      .finally(() => {
        running = undefined;
        if (!stopped) schedule(opts.intervalMs ?? DAY_MS);
      });
  };
  const schedule = (ms: number): void => {
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  schedule(opts.firstRunMs ?? 60_000);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
