// The daily fetch against a real HTTP server on 127.0.0.1 serving the recorded files: every
// provider is fetched and imported; a failing URL is logged and retried, never thrown; stop()
// ends the schedule.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { sql } from 'kysely';
import { startDailyRatesFetch, type RatesFetchLogger } from '../../src/rates/daily-fetch.js';
import { listRates } from '../../src/rates/query.js';
import { openTestDatabase } from '../helpers/db.js';
import { CNB_2025_04_25, ECB_DAILY, HNB_LIST, readFixture } from './fixture-files.js';

interface Route {
  status: number;
  body: string;
  type: string;
}

/** A local server; each path answers from a queue of responses, the last one repeating. */
async function serve(t: Test, routes: Record<string, Route[]>): Promise<{ url: (path: string) => string; hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const n = hits.get(path) ?? 0;
    hits.set(path, n + 1);
    const queue = routes[path];
    const r = queue?.[Math.min(n, queue.length - 1)] ?? { status: 404, body: 'not found', type: 'text/plain' };
    res.writeHead(r.status, { 'content-type': r.type });
    res.end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: (path) => `http://127.0.0.1:${port}${path}`, hits };
}

class MemoryLogger implements RatesFetchLogger {
  readonly entries: { level: 'info' | 'warn'; obj: Record<string, unknown>; msg: string }[] = [];
  info(obj: object, msg: string): void {
    this.entries.push({ level: 'info', obj: obj as Record<string, unknown>, msg });
  }
  warn(obj: object, msg: string): void {
    this.entries.push({ level: 'warn', obj: obj as Record<string, unknown>, msg });
  }
  of(level: 'info' | 'warn', provider: string) {
    return this.entries.filter((e) => e.level === level && e.obj.provider === provider);
  }
}

async function until(what: string, cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const ok = (body: string, type: string): Route => ({ status: 200, body, type });
const HNB_OK = ok(readFixture(HNB_LIST), 'application/json');
const ECB_OK = ok(readFixture(ECB_DAILY), 'text/xml');
const CNB_OK = ok(readFixture(CNB_2025_04_25), 'text/plain; charset=UTF-8');
const DOWN: Route = { status: 503, body: '<html>Service Unavailable</html>', type: 'text/html' };

const { db } = await openTestDatabase(t);
t.beforeEach(async () => {
  await sql`delete from exchange_rates`.execute(db);
});

t.test('fetches and imports every provider; a failing URL is logged and retried until it works', async (t) => {
  const srv = await serve(t, { '/hnb': [HNB_OK], '/ecb': [ECB_OK], '/cnb': [DOWN, DOWN, CNB_OK] });
  const logger = new MemoryLogger();
  const job = startDailyRatesFetch({
    db,
    logger,
    intervalMs: 3_600_000,
    retryMs: 25,
    urls: { HNB: srv.url('/hnb'), ECB: srv.url('/ecb'), CNB: srv.url('/cnb') },
  });
  t.teardown(() => job.stop());
  await until('three imports', () => logger.entries.filter((e) => e.level === 'info').length === 3);

  t.equal(srv.hits.get('/cnb'), 3, 'two failures, then the retry that succeeded');
  t.equal(srv.hits.get('/hnb'), 1, 'a success waits for the interval');
  t.match(
    logger.of('warn', 'CNB'),
    [
      {
        obj: { url: srv.url('/cnb'), err: 'HTTP 503 Service Unavailable', failures: 1, retryInMs: 25 },
        msg: 'exchange-rate fetch failed; will retry',
      },
      { obj: { err: 'HTTP 503 Service Unavailable', failures: 2, retryInMs: 50 } },
    ],
    'the retry delay doubles per consecutive failure',
  );
  t.match(logger.of('info', 'CNB'), [{ obj: { imported: 31, changed: 31, dates: ['2025-04-25'] }, msg: 'exchange rates fetched' }]);
  t.match(logger.of('info', 'HNB'), [{ obj: { imported: 13, dates: ['2025-04-14'] } }]);
  t.match(logger.of('info', 'ECB'), [{ obj: { imported: 30, dates: ['2025-04-11'] } }]);
  t.equal(logger.of('warn', 'HNB').length + logger.of('warn', 'ECB').length, 0);

  t.equal((await listRates(db, { provider: 'HNB', date: '2025-04-14' })).length, 13);
  t.equal((await listRates(db, { provider: 'ECB', date: '2025-04-13' })).length, 30);
  t.same(await listRates(db, { provider: 'CNB', date: '2025-04-27', currency: 'TRY' }), [
    { source: 'CNB', date: '2025-04-25', currency: 'TRY', rate: '57.137', units: 100, baseCurrency: 'CZK', direction: 'BasePerForeign' },
  ]);

  await job.stop();
  const hitsAtStop = [...srv.hits.values()].reduce((a, b) => a + b, 0);
  await new Promise((r) => setTimeout(r, 150));
  t.equal(
    [...srv.hits.values()].reduce((a, b) => a + b, 0),
    hitsAtStop,
    'nothing is fetched after stop()',
  );
});

t.test('a success is fetched again after the interval; the repeat import changes nothing', async (t) => {
  const srv = await serve(t, { '/ecb': [ECB_OK] });
  const logger = new MemoryLogger();
  const job = startDailyRatesFetch({ db, logger, providers: ['ECB'], intervalMs: 30, retryMs: 10_000, urls: { ECB: srv.url('/ecb') } });
  t.teardown(() => job.stop());
  await until('a second fetch', () => logger.of('info', 'ECB').length >= 2);
  await job.stop();
  t.match(
    logger.of('info', 'ECB').map((e) => e.obj.changed),
    [30, 0],
  );
  t.same(srv.hits.get('/hnb'), undefined, 'only the selected provider');
});

t.test('unreachable hosts, HTML error pages and malformed bodies are logged, never thrown', async (t) => {
  const broken = readFixture(CNB_2025_04_25).replace('USA|dolar|1|USD|21,950', 'USA|dolar|1|USD|21.950');
  const srv = await serve(t, {
    '/cnb-broken': [ok(broken, 'text/plain')],
    '/ecb-html': [ok('<html><body>maintenance</body></html>', 'text/html')],
  });
  // A port that was just free: connections are refused.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const deadPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));

  const logger = new MemoryLogger();
  const job = startDailyRatesFetch({
    db,
    logger,
    intervalMs: 3_600_000,
    retryMs: 20,
    urls: { HNB: `http://127.0.0.1:${deadPort}/tecajn-eur/v3`, ECB: srv.url('/ecb-html'), CNB: srv.url('/cnb-broken') },
  });
  t.teardown(() => job.stop());
  await until('repeated failures of every provider', () => ['HNB', 'ECB', 'CNB'].every((p) => logger.of('warn', p).length >= 2));
  await job.stop();

  t.match(logger.of('warn', 'HNB')[0]?.obj, { err: 'fetch failed', cause: /ECONNREFUSED/ });
  t.match(logger.of('warn', 'ECB')[0]?.obj, {
    err: /ECB rates in http:\/\/127\.0\.0\.1:\d+\/ecb-html, line 1: expected a gesmes:Envelope document/,
  });
  t.match(logger.of('warn', 'CNB')[0]?.obj, { err: /line 32: rate of USD: "21\.950" is not a decimal number/ });
  t.equal(logger.entries.filter((e) => e.level === 'info').length, 0);
  t.equal((await listRates(db, { provider: 'CNB', date: '2025-04-25' })).length, 0, 'a malformed body stores nothing');
});

t.test('the retry delay doubles per failure and is capped at the interval', async (t) => {
  const srv = await serve(t, { '/hnb': [DOWN] });
  const logger = new MemoryLogger();
  const job = startDailyRatesFetch({ db, logger, providers: ['HNB'], intervalMs: 40, retryMs: 5, urls: { HNB: srv.url('/hnb') } });
  t.teardown(() => job.stop());
  await until('five failures', () => logger.of('warn', 'HNB').length >= 5);
  await job.stop();
  t.same(
    logger
      .of('warn', 'HNB')
      .slice(0, 5)
      .map((e) => e.obj.retryInMs),
    [5, 10, 20, 40, 40],
  );
});

t.test('runNow fetches on demand and answers what succeeded; a throwing logger is contained', async (t) => {
  const srv = await serve(t, { '/hnb': [HNB_OK], '/ecb': [DOWN] });
  const job = startDailyRatesFetch({
    db,
    logger: {
      info: () => {
        throw new Error('log sink down');
      },
      warn: () => {
        throw new Error('log sink down');
      },
    },
    providers: ['HNB', 'ECB'],
    intervalMs: 3_600_000,
    retryMs: 3_600_000,
    urls: { HNB: srv.url('/hnb'), ECB: srv.url('/ecb') },
  });
  t.teardown(() => job.stop());
  const results = await job.runNow();
  await job.stop();
  t.match(results, [{ provider: 'HNB', imported: 13, dates: ['2025-04-14'] }]);
  t.equal(results.length, 1, 'the failed ECB fetch is not in the answer');
});
