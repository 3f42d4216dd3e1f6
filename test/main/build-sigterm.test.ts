// The image's way of running Travelog, minus Docker: `npm run build` (tsconfig.build.json) into a
// temporary directory, then the built `start.js` under plain `node` (no tsx, no npm) as a real
// process on its own PostgreSQL database. SIGTERM arrives while webhook deliveries are in flight
// to a slow HTTPS receiver: the process finishes and records them, then exits 0.
import t from 'tap';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../../src/infra/database.js';
import { createTenant } from '../../src/tenancy/tenants.js';
import { createApiKey, SCOPES } from '../../src/tenancy/api-keys.js';
import { startHttpsReceiver } from '../helpers/https-receiver.js';
import { ROOT } from '../helpers/processes.js';
import { waitFor } from '../helpers/webhook-harness.js';
import { createOwnDatabase, TEST_DATABASE_URL } from '../helpers/db.js';

const run = promisify(execFile);
const RECEIVER_DELAY_MS = 4000;

t.test(
  'built start.js under node: SIGTERM with deliveries in flight',
  {
    skip:
      TEST_DATABASE_URL === undefined
        ? 'needs DATABASE_URL (PostgreSQL): the built process and this test must share a database, which the embedded one does not allow'
        : false,
  },
  async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'travelog-build-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    await run(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--outDir', path.join(dir, 'dist')], {
      cwd: ROOT,
      timeout: 300_000,
    });
    // As `npm run build` does: the reference data (rate tables, municipalities) beside the compiled code.
    await cp(path.join(ROOT, 'src/reference-data'), path.join(dir, 'dist/src/reference-data'), { recursive: true });
    // As in the image: package.json (ESM) and node_modules next to dist.
    await copyFile(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));

    // A database of its own: the process migrates it like a fresh installation.
    const url = await createOwnDatabase(t, 'travelog_build');

    const receiver = await startHttpsReceiver();
    t.teardown(() => receiver.close());
    receiver.respondWith(() => ({ status: 200, delayMs: RECEIVER_DELAY_MS }));
    const caFile = path.join(dir, 'receiver-ca.pem');
    await writeFile(caFile, receiver.ca);

    const logs: string[] = [];
    const child = spawn(process.execPath, [path.join(dir, 'dist/src/main/start.js')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        NODE_OPTIONS: '',
        DATABASE_URL: url,
        SECRETS_KEY: randomBytes(32).toString('hex'),
        PORT: '0',
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        RATES_FETCH: 'off',
        DATA_DIR: path.join(dir, 'data'),
        WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
        WEBHOOK_TIMEOUT_MS: '30000',
        NODE_EXTRA_CA_CERTS: caFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    t.teardown(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    child.stdout.on('data', (d) => logs.push(String(d)));
    child.stderr.on('data', (d) => logs.push(String(d)));
    const baseUrl = await waitFor(
      () => /"address":"(http:\/\/[^"]+)"/.exec(logs.join(''))?.[1],
      120_000,
      `the built server to listen:\n${logs.join('')}`,
    );

    const handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 2 });
    t.teardown(() => handle.close());
    const tenant = await createTenant(handle.db, { name: 'Build d.o.o.', country: 'HR' });
    const key = (await createApiKey(handle.db, { tenantId: tenant.id, scopes: [...SCOPES] })).key;
    const call = async (p: string, body: unknown) => {
      const res = await fetch(`${baseUrl}${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const sub = await call('/api/v1/webhooks', { url: `${receiver.url}hook`, eventTypes: ['employee.created'] });
    t.equal(sub.status, 201, sub.text);
    for (let i = 0; i < 3; i++) {
      const r = await call('/api/v1/employees', { firstName: `E${i}`, lastName: 'Build' });
      t.equal(r.status, 201, r.text);
    }
    // All three attempts reached the receiver, which holds its answers for a while.
    await waitFor(() => (receiver.requests.length >= 3 ? true : undefined), 60_000, 'three deliveries in flight');
    const recordedBefore = await sql<{ n: number }>`select count(*)::int as n from webhook_delivery_attempts`.execute(handle.db);
    t.equal(recordedBefore.rows[0]!.n, 0, 'nothing recorded yet: the attempts are in flight');

    child.kill('SIGTERM');
    const code = await exited;
    t.equal(code, 0, `clean exit:\n${logs.join('').slice(-3000)}`);
    t.match(logs.join(''), /"msg":"shutting down"/);
    t.match(logs.join(''), /"msg":"stopped"/);

    const deliveries = await sql<{ status: string; attempt_count: number }>`select status, attempt_count from webhook_deliveries`.execute(
      handle.db,
    );
    t.same(
      deliveries.rows.map((r) => [r.status, r.attempt_count]),
      [
        ['Succeeded', 1],
        ['Succeeded', 1],
        ['Succeeded', 1],
      ],
      'the in-flight deliveries were recorded before exit',
    );
    const attempts = await sql<{ n: number }>`select count(*)::int as n from webhook_delivery_attempts where status_code = 200`.execute(
      handle.db,
    );
    t.equal(attempts.rows[0]!.n, 3);
    t.equal((logs.join('').match(/"msg":"webhook delivery attempt"/g) ?? []).length, 3, 'each attempt logged by the built process');
  },
);
