import t from 'tap';
import { DEFAULT_RETRY_DELAYS_SECONDS } from '../../../src/config/config.js';
import { classifyOutcome, failureClassForStatus } from '../../../src/webhooks/delivery/outcome.js';
import { maxAttempts, nextAttemptAt } from '../../../src/webhooks/delivery/retry-schedule.js';

t.test('the default schedule: 30s, 1m, 5m, 15m, 1h, 3h, 12h, 24h, then Exhausted after the 9th attempt', async (t) => {
  t.same([...DEFAULT_RETRY_DELAYS_SECONDS], [30, 60, 300, 900, 3600, 10800, 43200, 86400]);
  t.equal(maxAttempts(), 9);
  const finished = new Date('2026-11-20T12:00:00.000Z');
  const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => (nextAttemptAt(n, finished)!.getTime() - finished.getTime()) / 1000);
  t.same(delays, [30, 60, 300, 900, 3600, 10800, 43200, 86400]);
  t.equal(nextAttemptAt(9, finished), null);
  t.equal(nextAttemptAt(10, finished), null);
});

t.test('cumulative timing matches the spec table (about 40h 21m)', async (t) => {
  let at = new Date(0);
  for (let n = 1; n <= 8; n++) at = nextAttemptAt(n, at)!;
  t.equal(at.getTime() / 1000, 30 + 60 + 300 + 900 + 3600 + 10800 + 43200 + 86400);
  t.equal(Math.floor(at.getTime() / 60000), 40 * 60 + 21);
});

t.test('compressed delays from config (tests, sandbox tenants), fractions allowed', async (t) => {
  const delays = [0.05, 0.1, 0, 1, 1, 1, 1, 2];
  const finished = new Date(1000);
  t.equal(nextAttemptAt(1, finished, delays)!.getTime(), 1050);
  t.equal(nextAttemptAt(3, finished, delays)!.getTime(), 1000);
  t.equal(nextAttemptAt(9, finished, delays), null);
  t.equal(maxAttempts(delays), 9);
  t.throws(() => nextAttemptAt(0, finished));
  t.throws(() => nextAttemptAt(1.5, finished));
});

t.test('classifyOutcome', async (t) => {
  const byStatus = (statusCode: number) =>
    classifyOutcome({ statusCode, ...(failureClassForStatus(statusCode) ? { failureClass: failureClassForStatus(statusCode)! } : {}) });
  for (const s of [200, 201, 202, 204, 299]) t.equal(byStatus(s), 'succeeded', String(s));
  for (const s of [300, 301, 302, 303, 307, 308]) t.equal(byStatus(s), 'failed', `${s} redirect is not followed and not retried`);
  for (const s of [400, 401, 403, 404, 405, 409, 410, 413, 422, 499]) t.equal(byStatus(s), 'failed', String(s));
  for (const s of [408, 429, 500, 502, 503, 504, 599, 600, 999]) t.equal(byStatus(s), 'retry', String(s));
  for (const c of ['dns', 'connect', 'tls', 'timeout'] as const) t.equal(classifyOutcome({ failureClass: c }), 'retry', c);
  t.equal(classifyOutcome({ statusCode: 200, failureClass: 'timeout' }), 'retry', 'a 200 whose body did not arrive in time');
  t.equal(classifyOutcome({ failureClass: 'blocked_address' }), 'failed');
  t.equal(failureClassForStatus(302), 'redirect');
  t.equal(failureClassForStatus(404), 'http_4xx');
  t.equal(failureClassForStatus(503), 'http_5xx');
  t.equal(failureClassForStatus(200), undefined);
});
