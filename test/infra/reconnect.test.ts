// Lost connections on the shared server, without stopping it: only this test's own sessions are
// terminated (pg_terminate_backend). A terminated pooled connection must not end the process, and
// LISTEN connections (and the caches resting on them) must come back by themselves.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { openDatabase } from '../../src/infra/database.js';
import { ReconnectingListener } from '../../src/infra/listener.js';
import { PrincipalCache } from '../../src/tenancy/principal-cache.js';
import { ReadCache } from '../../src/http/read-cache.js';
import { openTestDatabase, TEST_DATABASE_URL } from '../helpers/db.js';

const skip = !TEST_DATABASE_URL && 'needs a PostgreSQL server (set DATABASE_URL)';

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(20)) if (await check()) return;
  throw new Error(`timed out waiting for ${what}`);
}

t.test('a terminated idle pooled connection is reported, not fatal, and the pool goes on', { skip }, async (t) => {
  const errors: unknown[] = [];
  const handle = await openDatabase({
    databaseUrl: TEST_DATABASE_URL,
    dataDir: 'memory://',
    poolSize: 1,
    onConnectionError: (err) => errors.push(err),
  });
  t.teardown(() => handle.close());
  const killer = await openDatabase({ databaseUrl: TEST_DATABASE_URL, dataDir: 'memory://', poolSize: 1 });
  t.teardown(() => killer.close());
  const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]!.pid;
  // Without an 'error' listener on the pool this is an uncaught exception: the test process dies.
  await sql`select pg_terminate_backend(${pid})`.execute(killer.db);
  await until('the loss to be reported', () => errors.length > 0);
  const again = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]!.pid;
  t.not(again, pid, 'a new connection serves the next query');
});

t.test('a LISTEN connection comes back after it is terminated, and hears again', { skip }, async (t) => {
  const killer = await openDatabase({ databaseUrl: TEST_DATABASE_URL, dataDir: 'memory://', poolSize: 1 });
  t.teardown(() => killer.close());
  const channel = `reconnect_${process.pid}`;
  const heard: string[] = [];
  let ups = 0;
  let downs = 0;
  const listener = new ReconnectingListener({
    connectionString: TEST_DATABASE_URL!,
    channel,
    onNotification: (p) => heard.push(p),
    onUp: () => {
      ups++;
    },
    onDown: () => {
      downs++;
    },
  });
  t.teardown(() => listener.close());
  t.equal(await listener.start(), true, 'up at once');
  const first = listener.sessionPid();
  await sql`select pg_terminate_backend(${first})`.execute(killer.db);
  await until('the loss', () => downs === 1);
  await until('the reconnection', () => ups === 2);
  t.not(listener.sessionPid(), first, 'a new session');
  await sql`select pg_notify(${channel}, 'after')`.execute(killer.db);
  await until('the notification', () => heard.includes('after'));
  t.pass('notifications are heard on the new connection');
});

t.test('the caches switch off while their listener is lost and on again, empty, once it is back', { skip }, async (t) => {
  const handle = await openTestDatabase(t);
  const killer = await openDatabase({ databaseUrl: TEST_DATABASE_URL, dataDir: 'memory://', poolSize: 1 });
  t.teardown(() => killer.close());
  const principals = await PrincipalCache.open(handle);
  t.teardown(() => principals.close());
  const reads = await ReadCache.open(handle);
  t.teardown(() => reads.close());
  const p = principals;
  const r = reads;
  t.ok(p.caching && r.caching, 'both cache while listening');
  principals.set('digest', { tenantId: 't' } as never, principals.begin());
  t.ok(principals.get('digest'), 'an entry is cached');

  let pOff = false;
  let rOff = false;
  const watch = setInterval(() => {
    pOff ||= !p.caching;
    rOff ||= !r.caching;
  }, 1);
  t.teardown(() => clearInterval(watch));
  const before = [p.listenerSessionPid()!, r.listenerSessionPid()!];
  for (const pid of before) await sql`select pg_terminate_backend(${pid})`.execute(killer.db);
  await until('both caches off', () => pOff && rOff);
  await until(
    'both caches on again',
    () => p.caching && r.caching && p.listenerSessionPid() !== undefined && r.listenerSessionPid() !== undefined,
  );
  t.not(p.listenerSessionPid(), before[0], 'the principal cache listens on a new session');
  t.not(r.listenerSessionPid(), before[1], 'the read cache listens on a new session');
  t.equal(principals.get('digest'), undefined, 'what was cached before the loss is gone');
});
