// `.env` fills the environment without overriding it, and ADMIN_PORT fixes the admin API's port.
import t from 'tap';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { loadEnvFile } from '../../src/config/env-file.js';
import { ADMIN_FILE, startAdminServer } from '../../src/admin/server.js';
import { openTestDatabase } from '../helpers/db.js';
import { createPostgresEventStore } from '../../src/eventstore/postgres/index.js';

t.test('.env in the directory fills unset variables and never overrides set ones', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'travelog-env-'));
  t.equal(loadEnvFile(dir), undefined, 'no file: nothing loaded');
  writeFileSync(join(dir, '.env'), 'TRAVELOG_ENV_TEST_A=from-file\nTRAVELOG_ENV_TEST_B=from-file\n# a comment\n');
  process.env.TRAVELOG_ENV_TEST_B = 'from-shell';
  t.teardown(() => {
    delete process.env.TRAVELOG_ENV_TEST_A;
    delete process.env.TRAVELOG_ENV_TEST_B;
  });
  t.equal(loadEnvFile(dir), join(dir, '.env'));
  t.equal(process.env.TRAVELOG_ENV_TEST_A, 'from-file');
  t.equal(process.env.TRAVELOG_ENV_TEST_B, 'from-shell', 'what the operator exported wins');
});

t.test('ADMIN_PORT: default 0 (a free port), a number in range, else a configuration error', async (t) => {
  t.equal(loadConfig({}).adminPort, 0);
  t.equal(loadConfig({ ADMIN_PORT: '7070' }).adminPort, 7070);
  t.throws(() => loadConfig({ ADMIN_PORT: '70000' }), ConfigError);
  t.throws(() => loadConfig({ ADMIN_PORT: 'admin' }), ConfigError);
});

t.test('the admin API listens on the port it is given, on loopback', async (t) => {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'travelog-admin-'));
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const admin = await startAdminServer({ db: handle.db, store } as never, { dataDir, logger: pino({ level: 'silent' }), port });
  t.teardown(() => admin.close());
  t.equal(admin.port, port);
  t.equal(JSON.parse(readFileSync(join(dataDir, ADMIN_FILE), 'utf8')).port, port, 'the CLI finds it in the admin file');
  const res = await fetch(`http://127.0.0.1:${port}/admin/ops/none`, { method: 'POST' });
  t.equal(res.status, 401, 'it answers there, and wants its token');
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
