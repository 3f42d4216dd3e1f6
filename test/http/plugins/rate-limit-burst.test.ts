// Failed authentications per address, under a burst (outside try, session 23): wrong keys sent at
// once all passed the check before authentication, since a failure is counted only once its lookup
// answers: 516 of 1,000 were looked up against a budget of 100, and a right key in the burst got
// 200. A distinct key being checked now holds a unit of its address's budget until its outcome is
// counted. One client's burst with its one right key holds one unit, and is not refused.
import t, { type Test } from 'tap';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DATABASE_URL } from '../../helpers/db.js';

const limitsEnv = {
  RATE_LIMIT_PER_KEY_MAX: '1000',
  RATE_LIMIT_PER_KEY_WINDOW_SECONDS: '120',
  RATE_LIMIT_AUTH_FAILURES_MAX: '3',
  RATE_LIMIT_AUTH_FAILURES_WINDOW_SECONDS: '300',
};
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomText = (n: number): string => Array.from(randomBytes(n), (b) => ALPHABET[b % ALPHABET.length]).join('');
/** A key of the right shape that no tenant holds: the database is asked and says no. */
const wrongKey = (): string => `tvl_${randomText(8)}_${randomText(43)}`;

/** `keys.length` GETs sent at once, each on its own connection: the statuses in order. */
async function burst(app: TestApp, keys: string[]): Promise<{ status: number; body: any; retryAfter: string | undefined }[]> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: keys.length });
  try {
    return await Promise.all(
      keys.map(
        (key) =>
          new Promise<{ status: number; body: any; retryAfter: string | undefined }>((resolve, reject) => {
            const req = http.get(`${app.baseUrl}/api/v1/employees`, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), retryAfter: res.headers['retry-after'] }));
            });
            req.on('error', reject);
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

const BURST = 200;

/**
 * Key lookups parked on a lock held from a second session, so requests are sent while earlier ones
 * are still being checked, whatever the machine's speed: `parked()` resolves once one waits on it.
 * That takes a second connection: on a real PostgreSQL only.
 */
async function holdKeyLookups(t: Test, app: TestApp): Promise<{ parked(): Promise<void>; release(): Promise<void> }> {
  const locker = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${app.rt.handle.searchPath}` });
  await locker.connect();
  t.teardown(() => locker.end());
  await locker.query('begin');
  await locker.query('lock table api_keys in access exclusive mode');
  return {
    async parked() {
      for (const deadline = Date.now() + 30_000; ;) {
        await locker.query('select pg_stat_clear_snapshot()');
        const waiting = await locker.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%"api_keys"%'`);
        if (waiting.rowCount) return;
        if (Date.now() > deadline) throw new Error('no key lookup reached the lock');
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    release: async () => void (await locker.query('commit')),
  };
}

const needsSecondSession = { skip: TEST_DATABASE_URL ? false : 'needs DATABASE_URL (a second session holds the lock)' };

t.test('a burst of wrong keys is held to the failure budget', needsSecondSession, async (t) => {
  const app = await startTestApp(t, { env: limitsEnv });
  const lookups = await holdKeyLookups(t, app);
  const pending = burst(app, Array.from({ length: BURST }, wrongKey));
  await lookups.parked();
  await new Promise((r) => setTimeout(r, 1000)); // the rest of the burst arrives meanwhile
  await lookups.release();
  const answers = await pending;
  const count = (status: number) => answers.filter((r) => r.status === status).length;
  t.ok(count(401) <= 3, `at most the budget's 3 keys were looked up and refused 401 (got ${count(401)})`);
  t.equal(count(401) + count(429), BURST, 'the rest were answered 429');
  const limited = answers.find((r) => r.status === 429)!;
  t.match(limited.body, { code: 'RATE_LIMITED', policy: 'auth-failures', limit: 3 });
  t.ok(Number(limited.retryAfter) >= 1, 'with Retry-After');
  const right = await app.request('GET', '/api/v1/employees');
  t.equal(right.status, 429, 'after the burst a right key is refused too');
});

t.test("one client's burst with its one right key is not refused", async (t) => {
  const app = await startTestApp(t, { env: limitsEnv });
  const key = (await app.newTenant()).key; // not yet in the principal cache: every request looks it up
  const answers = await burst(
    app,
    Array.from({ length: BURST }, () => key),
  );
  t.same([...new Set(answers.map((r) => r.status))], [200]);
});

t.test('while wrong keys being looked up fill the budget, keys the cache verified take no unit', needsSecondSession, async (t) => {
  const app = await startTestApp(t, { env: limitsEnv });
  const keys = await Promise.all(Array.from({ length: 8 }, async () => (await app.newTenant()).key));
  for (const key of keys) t.equal((await app.request('GET', '/api/v1/employees', { key })).status, 200, 'verified once');
  const lookups = await holdKeyLookups(t, app);
  const wrong = burst(app, [wrongKey(), wrongKey(), wrongKey()]); // three units: the whole budget
  await lookups.parked();
  await new Promise((r) => setTimeout(r, 200));
  const unseen = await burst(app, [wrongKey()]);
  t.same([unseen[0]!.status, unseen[0]!.retryAfter], [429, '1'], 'a fourth key to look up is refused, to retry in a second');
  const verified = await burst(app, [...keys, ...keys]);
  t.same([...new Set(verified.map((r) => r.status))], [200], 'the verified keys are answered all the same');
  await lookups.release();
  t.same(
    (await wrong).map((r) => r.status),
    [401, 401, 401],
  );
});
