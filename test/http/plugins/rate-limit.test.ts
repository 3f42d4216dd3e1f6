// Partner-API rate limits over real HTTP: per API key, failed authentications per address (a brute
// force is answered 429), the IETF RateLimit-Policy/RateLimit headers on every partner response,
// health exempt; the in-process store and Redis (shared by two processes), and Redis down or frozen
// (fail open).
import t, { type Test } from 'tap';
import { Redis } from 'ioredis';
import { connect, createServer, type Socket } from 'node:net';
import { STORE_RETRY_MS } from '../../../src/http/plugins/rate-limit.js';
import { startTestApp, type TestApp, type TestResponse } from '../../helpers/app.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

async function redisAvailable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Counters of this address live in Redis across test runs: start each run from none. */
async function clearAuthFailures(): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    const keys = await redis.keys('travelog-rate-limit:*auth-failures:127.0.0.1');
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

const limitsEnv = {
  RATE_LIMIT_PER_KEY_MAX: '5',
  RATE_LIMIT_PER_KEY_WINDOW_SECONDS: '120',
  RATE_LIMIT_AUTH_FAILURES_MAX: '3',
  RATE_LIMIT_AUTH_FAILURES_WINDOW_SECONDS: '300',
};

function rateHeaders(res: TestResponse): { policy: string | null; limit: string | null } {
  return { policy: res.headers.get('ratelimit-policy'), limit: res.headers.get('ratelimit') };
}

async function perKeyLimit(t: Test, app: TestApp): Promise<void> {
  const tenant = await app.newTenant();
  const seen: TestResponse[] = [];
  for (let i = 0; i < 5; i++) seen.push(await app.request('GET', '/api/v1/employees', { key: tenant.key }));
  t.same(
    seen.map((r) => r.status),
    [200, 200, 200, 200, 200],
  );
  t.equal(seen[0]!.headers.get('ratelimit-policy'), '"per-key";q=5;w=120');
  t.same(
    seen.map((r) => /r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]),
    ['4', '3', '2', '1', '0'],
    'remaining counts down',
  );
  t.match(seen[4]!.headers.get('ratelimit'), /^"per-key";r=0;t=\d+$/);

  const over = await app.request('GET', '/api/v1/employees', { key: tenant.key });
  t.equal(over.status, 429);
  t.match(over.headers.get('content-type'), /^application\/problem\+json/);
  t.match(over.body, { code: 'RATE_LIMITED', status: 429, policy: 'per-key', limit: 5, windowSeconds: 120 });
  const retryAfter = Number(over.headers.get('retry-after'));
  t.ok(retryAfter >= 1 && retryAfter <= 120, `Retry-After ${retryAfter}`);
  t.same(rateHeaders(over), { policy: '"per-key";q=5;w=120', limit: `"per-key";r=0;t=${retryAfter}` });

  const another = await app.newTenant();
  const fine = await app.request('GET', '/api/v1/employees', { key: another.key });
  t.equal(fine.status, 200, 'another key has its own budget');
  t.equal(fine.headers.get('ratelimit'), '"per-key";r=4;t=120');

  // Errors carry the headers too (a 404 of a scoped route, a validation failure).
  const missing = await app.request('GET', '/api/v1/employees/00000000-0000-4000-8000-000000000000', { key: another.key });
  t.equal(missing.status, 404);
  t.match(missing.headers.get('ratelimit'), /^"per-key";r=3;t=\d+$/);
  const invalid = await app.request('POST', '/api/v1/employees', { key: another.key, body: {} });
  t.equal(invalid.status, 400);
  t.match(invalid.headers.get('ratelimit'), /^"per-key";r=2;t=\d+$/);

  const health = await app.request('GET', '/healthz', { key: null });
  t.equal(health.status, 200);
  t.same(rateHeaders(health), { policy: null, limit: null }, 'health endpoints are exempt');
}

async function authFailures(t: Test, app: TestApp): Promise<void> {
  // Well-formed, so the database is asked and says no.
  const bad = `tvl_abcdefgh_${'x'.repeat(43)}`;
  const failures: TestResponse[] = [];
  for (let i = 0; i < 3; i++) failures.push(await app.request('GET', '/api/v1/employees', { key: bad }));
  t.same(
    failures.map((r) => r.status),
    [401, 401, 401],
  );
  t.same(
    failures.map((r) => r.headers.get('ratelimit-policy')),
    Array(3).fill('"auth-failures";q=3;w=300'),
  );
  t.same(
    failures.map((r) => /r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]),
    ['2', '1', '0'],
  );

  const blocked = await app.request('GET', '/api/v1/employees', { key: bad });
  t.equal(blocked.status, 429, 'the brute force is answered 429');
  t.match(blocked.body, { code: 'RATE_LIMITED', policy: 'auth-failures', limit: 3 });
  t.ok(Number(blocked.headers.get('retry-after')) >= 1);
  t.match(blocked.headers.get('ratelimit'), /^"auth-failures";r=0;t=\d+$/);
  const noKey = await app.request('GET', '/api/v1/employees', { key: null });
  t.equal(noKey.status, 429, 'a request without a key is refused as well');
  const rightKey = await app.request('GET', '/api/v1/employees');
  t.equal(rightKey.status, 429, 'even a right key: a guess that hits is not told apart from one that misses');
  const health = await app.request('GET', '/healthz', { key: null });
  t.equal(health.status, 200, 'health stays answerable');
}

async function scrape(app: TestApp): Promise<string> {
  return app.rt.metrics.registry.metrics();
}

t.test('in-process store', async (t) => {
  const app = await startTestApp(t, { env: limitsEnv });
  await t.test('per API key', (t) => perKeyLimit(t, app));
  await t.test('failed authentication per address', (t) => authFailures(t, app));
  t.match(await scrape(app), /rate_limited_requests_total\{policy="per-key"\} 1/);
  t.match(await scrape(app), /rate_limited_requests_total\{policy="auth-failures"\} 3/);
});

t.test('RATE_LIMIT=off sends no headers and never 429', async (t) => {
  const app = await startTestApp(t, { env: { ...limitsEnv, RATE_LIMIT: 'off' } });
  const statuses = new Set<number>();
  for (let i = 0; i < 8; i++) {
    const r = await app.request('GET', '/api/v1/employees');
    statuses.add(r.status);
    t.equal(r.headers.get('ratelimit'), null);
  }
  t.same([...statuses], [200]);
});

t.test('Redis store', async (t) => {
  if (!(await redisAvailable())) {
    t.skip(`no Redis at ${REDIS_URL}`, async () => undefined);
    return;
  }
  await clearAuthFailures();
  t.teardown(clearAuthFailures);
  const env = { ...limitsEnv, REDIS_URL };
  const app = await startTestApp(t, { env });
  // A second process on the same Redis: an address's failures count in both.
  const second = await startTestApp(t, { env });
  await t.test('per API key', (t) => perKeyLimit(t, app));
  await t.test('failed authentication per address, shared by both processes', async (t) => {
    t.equal((await second.request('GET', '/api/v1/employees', { key: 'tvl_wrong' })).status, 401);
    t.equal((await second.request('GET', '/api/v1/employees', { key: 'tvl_wrong' })).status, 401);
    t.equal((await second.request('GET', '/api/v1/employees', { key: 'tvl_wrong' })).status, 401);
    t.equal(
      (await app.request('GET', '/api/v1/employees', { key: 'tvl_wrong' })).status,
      429,
      "the first process sees the second one's failures",
    );
  });
  const redis = new Redis(REDIS_URL);
  t.teardown(() => redis.disconnect());
  const stored = await redis.keys('travelog-rate-limit:*');
  t.ok(stored.length > 0, 'counters live in Redis');
  t.notOk(
    stored.some((k) => k.includes('tvl_')),
    'no presented key is a Redis key',
  );
  t.ok(
    stored.some((k) => /-key:[0-9a-f-]{36}$/.test(k)),
    'per-key counters are keyed by the API key id',
  );
});

t.test('Redis unreachable: requests go through, logged and counted', async (t) => {
  // Nothing listens on port 1: every store call fails at once.
  const app = await startTestApp(t, { env: { ...limitsEnv, REDIS_URL: 'redis://127.0.0.1:1' } });
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push((await app.request('GET', '/api/v1/employees')).status);
  t.same(statuses, Array(8).fill(200), 'fail open: no 429 and no 5xx');
  const errors = /rate_limit_store_errors_total (\d+)/.exec(await scrape(app));
  t.ok(errors && Number(errors[1]) >= 8, `store errors counted (${errors?.[1]})`);
});

/** A TCP hop in front of Redis that can stop passing bytes on, leaving every connection open: a frozen Redis. `held`: limiter commands held. */
async function freezableHop(
  target: number,
): Promise<{ url: string; freeze(frozen: boolean): void; held: () => number; close(): Promise<void> }> {
  let frozen = false;
  let held = 0;
  const queued: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      if (!frozen) return void upstream.write(chunk);
      // The limiter's commands (its Lua script, by EVALSHA or EVAL); not ioredis's own handshake
      // (INFO, CLIENT SETINFO), which it sends again each time it reconnects to the frozen server.
      held += chunk.toString('latin1').match(/\r\n(evalsha|eval)\r\n/gi)?.length ?? 0;
      queued.push(() => upstream.write(chunk));
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze(f) {
      frozen = f;
      if (!f) for (const send of queued.splice(0)) send();
    },
    held: () => held,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

t.test('Redis frozen: after one command misses its deadline, requests skip Redis for 5 s, then it is asked again', async (t) => {
  if (!(await redisAvailable())) {
    t.skip(`no Redis at ${REDIS_URL}`, async () => undefined);
    return;
  }
  const hop = await freezableHop(6379);
  t.teardown(() => hop.close());
  const app = await startTestApp(t, { env: { ...limitsEnv, RATE_LIMIT_PER_KEY_MAX: '1000', REDIS_URL: hop.url } });
  // Connected first: ioredis may still be connecting (a slow start on the embedded database passes its
  // connect deadline, and it connects again); a request limited through Redis carries the headers.
  let counted: string | null = null;
  for (let i = 0; i < 50 && counted === null; i++) {
    counted = (await app.request('GET', '/api/v1/employees')).headers.get('ratelimit');
    if (counted === null) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.match(counted, /^"per-key";r=\d+;t=\d+$/, 'counted in Redis while it answers');

  hop.freeze(true);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await app.request('GET', '/api/v1/employees')).status);
  t.same(statuses, Array(6).fill(200), 'fail open: no 429 and no 5xx');
  // Each request asks the store twice (the address's failures, the key's count). Before the store
  // was left alone after a failure, each of the six requests sent both and waited for both deadlines.
  t.equal(hop.held(), 1, 'one command went to the frozen Redis; the rest of the requests skipped it');
  const errors = /rate_limit_store_errors_total (\d+)/.exec(await scrape(app));
  t.ok(errors && Number(errors[1]) >= 12, `every unlimited check is counted (${errors?.[1]})`);

  // Once the 5 s are over, one request tries Redis again; those arriving meanwhile keep skipping it.
  await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_MS + 200));
  const burst = await Promise.all(Array.from({ length: 4 }, () => app.request('GET', '/api/v1/employees')));
  t.same(
    burst.map((r) => r.status),
    [200, 200, 200, 200],
  );
  t.equal(hop.held(), 2, 'four requests at once after the pause: one command went to the still-frozen Redis');

  hop.freeze(false);
  await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_MS + 200));
  const back = await app.request('GET', '/api/v1/employees');
  t.equal(back.status, 200);
  t.match(back.headers.get('ratelimit'), /^"per-key";r=\d+;t=\d+$/, 'limited through Redis again once it answers');
});

t.test('behind a trusted proxy the failed-authentication limit counts each client address from X-Forwarded-For', async (t) => {
  const bad = `tvl_abcdefgh_${'x'.repeat(43)}`;
  const from = (address: string, key = bad) => ({ key, headers: { 'x-forwarded-for': address } });
  await t.test('TRUST_PROXY names the proxy: one client over its budget does not lock out the others', async (t) => {
    const app = await startTestApp(t, { env: { ...limitsEnv, TRUST_PROXY: '127.0.0.1' } });
    for (let i = 0; i < 3; i++) t.equal((await app.request('GET', '/api/v1/employees', from('203.0.113.7'))).status, 401);
    t.equal((await app.request('GET', '/api/v1/employees', from('203.0.113.7'))).status, 429, 'the guessing client is refused');
    const other = await app.request('GET', '/api/v1/employees', from('198.51.100.4', app.tenant.key));
    t.equal(other.status, 200, 'another client behind the same proxy is not');
  });
  await t.test('without TRUST_PROXY the header is not believed: a guesser cannot pick a fresh address per try', async (t) => {
    const app = await startTestApp(t, { env: limitsEnv });
    for (let i = 0; i < 3; i++) t.equal((await app.request('GET', '/api/v1/employees', from(`203.0.113.${i}`))).status, 401);
    t.equal((await app.request('GET', '/api/v1/employees', from('203.0.113.9'))).status, 429);
  });
});
