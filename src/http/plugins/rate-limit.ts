// Partner-API rate limits (@fastify/rate-limit, fixed windows): requests per API key, and failed
// authentications per client address. Counters live in the process (LRU) or, with REDIS_URL, in
// Redis, shared by every API process.
//
// Order on a route with a scope:
//   1. before authentication: an address over its failed-authentication budget gets 429 without
//      its key being checked, so a brute force learns nothing more, not even from a right guess;
//   2. authentication fails: the address's failure counter moves (auth.ts calls `authFailed`);
//   3. authentication succeeds: the key's counter moves, keyed by the API key's id (never the key).
// Every such response carries the IETF structured headers (draft-ietf-httpapi-ratelimit-headers):
//   RateLimit-Policy: "per-key";q=6000;w=60   and   RateLimit: "per-key";r=5999;t=60
// The plugin's own draft-7 `ratelimit-*` headers are not sent: one set, in the current form.
//
// Redis down: the limit is skipped (fail open), logged at most once a minute and counted in
// rate_limit_store_errors_total; the API keeps answering. A limiter must not take the API down.
// After a failure the store is left alone for STORE_RETRY_MS: a frozen Redis (connected, silent)
// fails each command only at its 500 ms deadline, and asking it twice per request added a second to
// every request for as long as it stayed frozen.
import fp from 'fastify-plugin';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { problem, sendProblem } from '../problem.js';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type PolicyName = 'per-key' | 'auth-failures';

interface Window {
  policy: PolicyName;
  max: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

export interface RateLimits {
  /**
   * Before a presented key is looked up in the database (auth.ts; a key the principal cache verifies
   * takes no unit): 429 (the reply) when the address's failures in the window and the distinct keys
   * it has being looked up right now pass its budget; else a release to call once the outcome is
   * counted.
   */
  keyCheckStarted(
    request: FastifyRequest,
    reply: FastifyReply,
    presented: string,
  ): Promise<{ refused: FastifyReply } | { release: () => void }>;
  /** Counts a failed authentication of this request's address (auth.ts). */
  authFailed(request: FastifyRequest): Promise<void>;
  /** Counts a request of the authenticated key; answers 429 (and returns the reply) over the limit (auth.ts). */
  keyUsed(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits | undefined;
  }
  interface FastifyRequest {
    rateLimitWindow: Window | undefined;
  }
}

const STORE_ERROR_LOG_INTERVAL_MS = 60_000;
/** How long after a store failure requests skip the store, before one of them asks it again. */
export const STORE_RETRY_MS = 5_000;
/** A store command's deadline; also how long one request's try of a store left alone holds off the others. */
const STORE_COMMAND_TIMEOUT_MS = 500;
/** Counters the in-process store keeps (keys and addresses together; the least recently used go first). */
const LOCAL_STORE_ENTRIES = 10_000;

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, metrics } = app.deps;
    const limits = config.rateLimit;
    app.decorate('rateLimits', undefined);
    app.decorateRequest('rateLimitWindow', undefined);
    if (!limits.enabled) return;

    let redis: Redis | undefined;
    if (config.redisUrl !== undefined) {
      // No offline queue and one retry: with Redis away a command fails at once (and the limit is
      // skipped) instead of holding the request while ioredis reconnects in the background; a
      // connected but frozen Redis answers nothing, so each command also has a 500 ms deadline.
      redis = new Redis(config.redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: 2000,
        commandTimeout: STORE_COMMAND_TIMEOUT_MS,
      });
      redis.on('error', (err) => storeFailed(err));
      app.addHook('onClose', async () => {
        redis?.disconnect();
      });
    }
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: 'travelog-rate-limit:' } : { cache: LOCAL_STORE_ENTRIES }),
    });

    let lastStoreErrorLog = 0;
    /** Until when the store is skipped (fail open) after its last failure. */
    let storeSkippedUntil = 0;
    function storeFailed(err: unknown): void {
      storeSkippedUntil = Date.now() + STORE_RETRY_MS;
      metrics.rateLimitStoreErrors.inc();
      if (Date.now() - lastStoreErrorLog < STORE_ERROR_LOG_INTERVAL_MS) return;
      lastStoreErrorLog = Date.now();
      app.log.warn({ err }, 'rate-limit store unavailable: requests are not rate limited until it is back');
    }

    // With the in-process store, an address this process saw fail in none of the last window's
    // time has no failure counted: the check before authentication need not ask the store (one
    // store read of the two every request made; docs/benchmarks.md, session 8). With Redis other
    // processes count failures too, so every request asks. Bounded at twice the store's entries, so
    // an address is forgotten here only after the store (which also holds the keys' counters).
    const recentFailures = redis ? undefined : new Map<string, number>();
    const authFailuresWindowMs = limits.authFailuresWindowSeconds * 1000;
    const FAILURE_ADDRESSES = 2 * LOCAL_STORE_ENTRIES;
    function failureSeen(address: string): void {
      if (!recentFailures) return;
      recentFailures.delete(address); // re-inserted last: the map stays in order of last failure
      recentFailures.set(address, Date.now());
      if (recentFailures.size > FAILURE_ADDRESSES) recentFailures.delete(recentFailures.keys().next().value!);
    }
    const noRecentFailure = (address: string): boolean => {
      if (!recentFailures) return false;
      const at = recentFailures.get(address);
      return at === undefined || at < Date.now() - authFailuresWindowMs;
    };

    const perKey = app.createRateLimit({
      max: limits.perKeyMax,
      timeWindow: limits.perKeyWindowSeconds * 1000,
      keyGenerator: (request) => `key:${request.principal?.apiKeyId ?? 'none'}`,
    });
    const authFailures = app.createRateLimit({
      max: limits.authFailuresMax,
      timeWindow: limits.authFailuresWindowSeconds * 1000,
      keyGenerator: (request) => `auth-failures:${normalizeIP(request.ip)}`,
    });
    const windowSeconds = { 'per-key': limits.perKeyWindowSeconds, 'auth-failures': limits.authFailuresWindowSeconds };

    /** Runs a limiter; undefined when the store failed (fail open). */
    async function check(limiter: Limiter, policy: PolicyName, request: FastifyRequest, increment: boolean) {
      if (storeSkippedUntil !== 0) {
        if (Date.now() < storeSkippedUntil) {
          metrics.rateLimitStoreErrors.inc();
          return undefined;
        }
        // One request tries the store again; the others go on skipping it until that try has
        // answered or missed its deadline (review, session 27: at 200 requests/s, all of those in
        // the try's 500 ms waited on a still-frozen Redis).
        storeSkippedUntil = Date.now() + STORE_COMMAND_TIMEOUT_MS * 2;
      }
      try {
        const r = await limiter(request, { increment });
        storeSkippedUntil = 0;
        if (r.isAllowed) return undefined;
        // `read` reports a fresh window as ttl 0: the whole window is ahead.
        const resetSeconds = r.ttlInSeconds > 0 ? r.ttlInSeconds : windowSeconds[policy];
        const window: Window = { policy, max: r.max, windowSeconds: windowSeconds[policy], remaining: r.remaining, resetSeconds };
        request.rateLimitWindow = window;
        return { window, current: r.max - r.remaining, exceeded: r.isExceeded };
      } catch (err) {
        storeFailed(err);
        return undefined;
      }
    }

    function tooMany(request: FastifyRequest, reply: FastifyReply, window: Window, detail: string): FastifyReply {
      metrics.rateLimited.inc({ policy: window.policy });
      reply.header('Retry-After', String(window.resetSeconds));
      return sendProblem(
        reply,
        problem('RATE_LIMITED', request.id, detail, undefined, {
          policy: window.policy,
          limit: window.max,
          windowSeconds: window.windowSeconds,
          retryAfterSeconds: window.resetSeconds,
        }),
      );
    }

    // Keys being looked up, by address: a failure is counted only once its lookup has answered, so a
    // burst of wrong keys sent at once all passed the check before authentication (outside try,
    // session 23: 516 of 1,000 were looked up against a budget of 100, and a right key in the burst
    // answered 200). Each distinct key being looked up now holds one unit of its address's budget
    // until its outcome is counted. Distinct keys, not requests: one client's burst with its one key
    // holds one unit; a key the principal cache verifies holds none (auth.ts). In this process only;
    // with Redis each API process admits its own. The unit is taken before the failures are read,
    // and a failure is counted before its unit is released, so every attempt is in one or the other.
    const checking = new Map<string, Map<string, number>>();
    const authFailuresMax = limits.authFailuresMax;
    /** Lookups in flight clear within milliseconds: a refusal for them says so, not the window's length. */
    const IN_FLIGHT_RETRY_SECONDS = 1;

    app.rateLimits = {
      async keyCheckStarted(request, reply, presented) {
        const address = normalizeIP(request.ip);
        const held = checking.get(address) ?? new Map<string, number>();
        checking.set(address, held);
        held.set(presented, (held.get(presented) ?? 0) + 1);
        let released = false;
        const release = (): void => {
          if (released) return;
          released = true;
          const left = held.get(presented)! - 1;
          if (left > 0) held.set(presented, left);
          else held.delete(presented);
          if (held.size === 0 && checking.get(address) === held) checking.delete(address);
        };
        const failures = noRecentFailure(address) ? 0 : ((await check(authFailures, 'auth-failures', request, false))?.current ?? 0);
        if (failures + held.size <= authFailuresMax) return { release };
        release();
        const window: Window = {
          policy: 'auth-failures',
          max: authFailuresMax,
          windowSeconds: limits.authFailuresWindowSeconds,
          remaining: 0,
          resetSeconds: IN_FLIGHT_RETRY_SECONDS,
        };
        request.rateLimitWindow = window;
        return {
          refused: tooMany(
            request,
            reply,
            window,
            `Too many API keys are being checked from this address at once; retry in ${IN_FLIGHT_RETRY_SECONDS} s.`,
          ),
        };
      },
      async authFailed(request) {
        failureSeen(normalizeIP(request.ip));
        await check(authFailures, 'auth-failures', request, true);
      },
      async keyUsed(request, reply) {
        const r = await check(perKey, 'per-key', request, true);
        if (!r?.exceeded) return undefined;
        return tooMany(
          request,
          reply,
          r.window,
          `This API key made more than ${r.window.max} requests in ${r.window.windowSeconds} s; retry in ${r.window.resetSeconds} s.`,
        );
      },
    };

    // Before authentication (this hook is registered before the auth plugin's).
    app.addHook('onRequest', async (request, reply) => {
      if (!request.routeOptions.config.scope) return;
      if (noRecentFailure(normalizeIP(request.ip))) {
        request.rateLimitWindow = undefined;
        return;
      }
      const r = await check(authFailures, 'auth-failures', request, false);
      if (r && r.current >= r.window.max) {
        return tooMany(
          request,
          reply,
          { ...r.window, remaining: 0 },
          `Too many failed authentications from this address; retry in ${r.window.resetSeconds} s.`,
        );
      }
      // Not over the budget: the response speaks of the key's policy once the key is known.
      request.rateLimitWindow = undefined;
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const w = request.rateLimitWindow;
      if (w) {
        reply.header('RateLimit-Policy', `"${w.policy}";q=${w.max};w=${w.windowSeconds}`);
        reply.header('RateLimit', `"${w.policy}";r=${w.remaining};t=${w.resetSeconds}`);
      }
      return payload;
    });
  },
  { name: 'rate-limit', dependencies: ['deps'] },
);
