// PostgreSQL going away is an expected, temporary condition, not a bug: a restart, a failover, a
// terminated backend, a server frozen for a while. This module tells such errors from real ones and
// waits them out with capped exponential backoff, so every part of a process can outlive them.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from './database.js';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNABORTED']);
/**
 * SQLSTATEs that say "the server cannot serve you now", not "your statement is wrong". Class 53
 * (insufficient resources: a full disk, out of memory, too many connections) passes once the
 * operator acts: a full disk answered every write 500 INTERNAL_ERROR without Retry-After (the
 * embedded-default crash try, session 26), where a retry later succeeds.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '53000', '53100', '53200', '53300', '53400']);
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
  'terminating connection',
];

/** True for errors that mean the database is unreachable, restarting or not answering in time. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}

/** Capped exponential backoff: 250 ms, 500 ms, 1 s, 2 s, then 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(250 * 2 ** Math.max(0, attempt), 5_000);
}

/**
 * Runs `work` until it succeeds, waiting with backoff after every failure that `retryable` accepts
 * (database unavailability by default). Other errors are thrown at once. `onRetry` is told of each.
 */
export async function retryWhileUnavailable<T>(
  work: () => Promise<T>,
  o: {
    onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
    signal?: AbortSignal;
    retryable?: (err: unknown) => boolean;
  } = {},
): Promise<T> {
  const retryable = o.retryable ?? isDatabaseUnavailable;
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!retryable(err) || o.signal?.aborted) throw err;
      const delay = backoffMs(attempt);
      o.onRetry?.(err, attempt, delay);
      await sleep(delay, undefined, o.signal ? { signal: o.signal } : undefined).catch(() => undefined);
      if (o.signal?.aborted) throw err;
    }
  }
}

/** Resolves once `select 1` answers: a process starting while PostgreSQL is down waits for it. */
export function waitForDatabase(
  db: Db,
  o: { onRetry?: (err: unknown, attempt: number, delayMs: number) => void; signal?: AbortSignal } = {},
): Promise<void> {
  return retryWhileUnavailable(
    async () => {
      await sql`select 1`.execute(db);
    },
    { ...o, retryable: () => true },
  );
}

/** Rejects with a timeout error when `p` has not settled within `ms` (the promise itself runs on). */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} did not answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
