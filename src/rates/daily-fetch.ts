// The daily fetch: each provider's public URL is downloaded and imported on a timer. The network
// may be closed or a provider down; a failure is logged and retried later and never reaches the
// caller, because a missing rate has a documented answer (the 7-day fallback, then a manual rate)
// while a crashed process has none. Timers are unref'd so they never keep a process alive.
import type { Db } from '../infra/database.js';
import { importRatesText, type ImportResult } from './import-command.js';
import { PROVIDERS, PROVIDER_CODES, type ProviderCode } from './providers.js';

/** The subset of a pino logger this module uses. */
export interface RatesFetchLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface DailyRatesFetchOptions {
  readonly db: Db;
  readonly logger: RatesFetchLogger;
  /** Per-provider URL overrides (tests point them at a local server). */
  readonly urls?: Partial<Record<ProviderCode, string>>;
  /** Providers to fetch; default all three. */
  readonly providers?: readonly ProviderCode[];
  readonly fetchImpl?: typeof fetch;
  /** Time between successful fetches of one provider; default 6 hours (publication times vary). */
  readonly intervalMs?: number;
  /** Time before the first retry of a failed fetch, doubling per further failure up to intervalMs; default 15 minutes. */
  readonly retryMs?: number;
  /** Per-request timeout; default 30 seconds. */
  readonly timeoutMs?: number;
}

export interface DailyRatesFetch {
  /** Fetches every provider now (outside the schedule); resolves with what succeeded. */
  runNow(): Promise<ImportResult[]>;
  /** Cancels the timers and waits for a fetch in progress. */
  stop(): Promise<void>;
}

const HOUR = 3_600_000;

export function startDailyRatesFetch(opts: DailyRatesFetchOptions): DailyRatesFetch {
  const fetchImpl = opts.fetchImpl ?? globalThis.fetch;
  const intervalMs = opts.intervalMs ?? 6 * HOUR;
  const retryMs = opts.retryMs ?? HOUR / 4;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const providers = opts.providers ?? PROVIDER_CODES;
  const timers = new Map<ProviderCode, NodeJS.Timeout>();
  /** Consecutive failures per provider: a closed network backs off instead of logging every 15 minutes forever. */
  const failures = new Map<ProviderCode, number>();
  const nextDelay = (provider: ProviderCode): number => {
    const n = failures.get(provider) ?? 0;
    return n === 0 ? intervalMs : Math.min(retryMs * 2 ** Math.min(n - 1, 30), Math.max(intervalMs, retryMs));
  };
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  // A logger that throws must not turn into an unhandled rejection either.
  const log = (level: 'info' | 'warn', obj: object, msg: string): void => {
    try {
      opts.logger[level](obj, msg);
    } catch {
      /* nothing sensible left to report to */
    }
  };

  async function fetchOne(provider: ProviderCode): Promise<ImportResult | undefined> {
    const url = opts.urls?.[provider] ?? PROVIDERS[provider].url;
    try {
      const res = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
      const result = await importRatesText(opts.db, provider, await res.text(), url);
      failures.set(provider, 0);
      log('info', { provider, url, imported: result.imported, changed: result.changed, dates: result.dates }, 'exchange rates fetched');
      return result;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // fetch() reports network errors as "fetch failed" with the reason (ECONNREFUSED...) as cause.
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
      failures.set(provider, (failures.get(provider) ?? 0) + 1);
      log(
        'warn',
        { provider, url, err: message, cause, failures: failures.get(provider), retryInMs: nextDelay(provider) },
        'exchange-rate fetch failed; will retry',
      );
      return undefined;
    }
  }

  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    return p;
  }

  function schedule(provider: ProviderCode, delayMs: number): void {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(provider);
      void track(fetchOne(provider)).then(() => schedule(provider, nextDelay(provider)));
    }, delayMs);
    timer.unref();
    timers.set(provider, timer);
  }

  for (const p of providers) schedule(p, 0);

  return {
    async runNow() {
      const results = await Promise.all(providers.map((p) => track(fetchOne(p))));
      return results.filter((r): r is ImportResult => r !== undefined);
    },
    async stop() {
      stopped = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}
