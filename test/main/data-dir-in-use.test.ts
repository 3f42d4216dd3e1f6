// Two servers on one DATA_DIR (the embedded-default crash try, session 26): the second started and
// served, each saw only its own writes, and acknowledged writes were lost at the next start. Now the
// second refuses at once and names the owner; the first serves on; after a kill -9 of the owner a
// new server takes the directory over with every write kept.
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/infra/database.js';
import { runCli, startServer } from '../helpers/processes.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'travelog-in-use-'));
const env = { DATA_DIR: dataDir, DATABASE_URL: undefined };
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

t.test('a second server on the same DATA_DIR refuses; the first serves on', async (t) => {
  const first = await startServer(env);
  t.teardown(() => first.kill());
  const tenant = await runCli(['tenant', 'create', '--name', 'Held d.o.o.', '--country', 'HR'], env);
  t.equal(tenant.code, 0, tenant.stderr);
  const key = await runCli(['api-key', 'create', '--tenant', tenant.json.tenantId], env);
  t.equal(key.code, 0, key.stderr);
  const admin = readFileSync(path.join(dataDir, 'admin.json'), 'utf8');

  const second = await startServer(env).then(
    (s) => (s.kill(), 'started'),
    (err: Error) => err.message,
  );
  t.match(second, /server exited with 1/, 'the second process exits');
  t.match(second, new RegExp(`DATA_DIR .* is in use by process ${first.child.pid}`), 'naming the owner');
  t.equal(readFileSync(path.join(dataDir, 'admin.json'), 'utf8'), admin, "the owner's admin endpoint is left as it was");
  t.equal((await fetch(`${first.baseUrl}/healthz`)).status, 200, 'the first serves on');

  first.kill();
  await first.exited;
  const next = await startServer(env);
  t.teardown(() => next.kill());
  const company = await fetch(`${next.baseUrl}/api/v1/company`, { headers: { authorization: `Bearer ${key.json.key}` } });
  t.same(
    [company.status, ((await company.json()) as { id?: string }).id],
    [200, tenant.json.tenantId],
    'after a kill -9 the next server took over, the tenant kept',
  );
  t.equal(await next.stop(), 0, 'a graceful stop');
  t.notOk(existsSync(path.join(dataDir, 'travelog.lock')), 'gives the directory up');
});

t.test('after a restart, a claim the gone process left unanswered is judged at once', async (t) => {
  // The crash try (session 26): after a kill -9, a cut-off request's Idempotency-Key answered
  // IN_USE for the whole abandoned window (300 s). One process owns the directory, so a claim older
  // than the running one was made by a process that is gone, and what it recorded is final.
  const first = await startServer(env);
  t.teardown(() => first.kill());
  const tenant = await runCli(['tenant', 'create', '--name', 'Cut d.o.o.', '--country', 'HR'], env);
  const key = await runCli(['api-key', 'create', '--tenant', tenant.json.tenantId], env);
  const post = (baseUrl: string) =>
    fetch(`${baseUrl}/api/v1/employees`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.json.key}`, 'content-type': 'application/json', 'idempotency-key': 'cut-1' },
      body: JSON.stringify({ firstName: 'Ana', lastName: 'Cut' }),
    });
  const created = await post(first.baseUrl);
  t.equal(created.status, 201);
  const employee = ((await created.json()) as { id: string }).id;
  t.equal(await first.stop(), 0);
  // As a kill -9 after the commit leaves it: the claim made, its answer never stored.
  const handle = await openDatabase({ dataDir });
  await sql`update idempotency_keys set status_code = null, response_headers = null, response_body = null where key = 'cut-1'`.execute(
    handle.db,
  );
  await handle.close();

  const next = await startServer(env);
  t.teardown(() => next.kill());
  const retry = await post(next.baseUrl);
  const body = (await retry.json()) as { code?: string; resources?: string[] };
  t.same([retry.status, body.code], [409, 'IDEMPOTENCY_REPLAY_UNAVAILABLE'], 'judged now, not IN_USE for 300 s');
  t.same(body.resources, [`/api/v1/employees/${employee}`], 'naming what the first request did');
});

t.test('a DATA_DIR the process cannot use is named in one line, without a stack', async (t) => {
  const file = path.join(dataDir, 'not-a-directory');
  writeFileSync(file, 'x');
  const refused = await startServer({ ...env, DATA_DIR: file }).then(
    (s) => (s.kill(), 'started'),
    (err: Error) => err.message,
  );
  t.match(refused, /server exited with 1/);
  t.match(refused, /Travelog failed to start: ENOTDIR: not a directory, mkdir '.*not-a-directory/, 'the call and the path');
  t.notMatch(refused, /\n\s+at /, 'no stack of our source');
});

t.test('an admin.json left by a crashed server, its pid since taken by another process, is not followed', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'travelog-stale-admin-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // This test's own process stands for the one that reused the pid: alive, but not the server that
  // started at the recorded time. The CLI before took it for the server and called a dead port.
  writeFileSync(path.join(dir, 'admin.json'), JSON.stringify({ port: 9, token: 'stale', pid: process.pid, startTime: '1' }));
  const created = await runCli(['tenant', 'create', '--name', 'Stale d.o.o.', '--country', 'HR'], {
    DATA_DIR: dir,
    DATABASE_URL: undefined,
  });
  t.equal(created.code, 0, created.stderr);
  t.match(created.json, { tenantId: String }, 'the CLI opened the directory itself');
});
