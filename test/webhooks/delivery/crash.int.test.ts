// A worker that dies after sending and before recording: the same row is sent again, with the same
// bytes, the same event id and delivery id, and a fresh signature. On a server the dead worker's
// liveness session ends with it and another dispatcher releases the row before the lease runs out
// (issue 13); on the embedded database (one process) the lease expiry is what frees it.
// Twice: a dispatcher stopped dead in-process (both database modes), and a real `npm start`
// process killed with SIGKILL mid-delivery (PostgreSQL only: the embedded database belongs to
// one process). Two live workers and a kill -9 of one: takeover.int.test.ts.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { leaseMsFor } from '../../../src/webhooks/delivery/dispatcher.js';
import { verifyServiceSignature } from '../../../src/webhooks/verify.js';
import { createOwnDatabase, TEST_DATABASE_URL } from '../../helpers/db.js';
import { startHttpsReceiver } from '../../helpers/https-receiver.js';
import { runCli, startServer } from '../../helpers/processes.js';
import { registerEmployee, startWebhookHarness, waitFor } from '../../helpers/webhook-harness.js';

// Long enough that a release on a loaded machine still comes well before the lease would expire.
const TIMEOUT_MS = 3000;
const LEASE_MS = leaseMsFor(TIMEOUT_MS);
const SESSIONS = TEST_DATABASE_URL !== undefined;

t.test('in-process: a dispatcher dies between send and record', async (t) => {
  const h = await startWebhookHarness(t, { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
  const { app } = h;
  const work = app.rt.background!.webhooks!;
  // The first request is held past the attempt timeout; by then its worker is gone.
  h.receiver.respondWith((_req, i) => (i === 0 ? { status: 200, delayMs: TIMEOUT_MS + 500 } : { status: 200 }));
  const tenant = await app.newTenant();
  const sub = await h.subscribe(['employee.created'], { path: '/crash', key: tenant.key });
  await registerEmployee(app, {}, tenant.key);
  const [first] = await h.waitForRequests('/crash', 1);
  const firstAt = Date.now();
  work.dispatcher.crash();

  const replacement = work.startDispatcher();
  const [, second] = await h.waitForRequests('/crash', 2, LEASE_MS + 5000);
  const waited = Date.now() - firstAt;
  if (SESSIONS) {
    // The first receipt trails the claim, so "before the lease ran out" is measured from it with room to spare.
    t.ok(waited < LEASE_MS - 1000, `released with the dead session, before its lease ran out (${waited} ms, lease ${LEASE_MS} ms)`);
  } else {
    // Measured from the first receipt, which trails the claim by the connection setup: allow for that,
    // but stay well above the attempt timeout plus the first retry delay (a normal retry would come then).
    t.ok(waited >= LEASE_MS - 1000, `sent again only after the lease expired (${waited} ms after the first receipt, lease ${LEASE_MS} ms)`);
  }
  t.same(second!.body, first!.body, 'the same bytes');
  t.equal(second!.headers['service-event-id'], first!.headers['service-event-id'], 'the same event id');
  t.equal(second!.headers['service-delivery-id'], first!.headers['service-delivery-id'], 'the same delivery row');
  t.ok(verifyServiceSignature(second!.body, second!.headers['service-signature'], sub.signingSecret), 'freshly signed');

  const d = await waitFor(async () => {
    const list = await app.request('GET', `/api/v1/webhooks/${sub.id}/deliveries`, { key: tenant.key });
    return list.body.items[0]?.status === 'Succeeded' ? list.body.items[0] : undefined;
  });
  t.equal(d.attemptCount, 1, 'the attempt of the dead worker was never recorded; the one that finished was');
  await new Promise((r) => setTimeout(r, TIMEOUT_MS + 1000));
  t.equal(h.received('/crash').length, 2, 'no third send: the late result of the dead worker changed nothing');
  await replacement.stop();
});

t.test(
  'a real process killed with SIGKILL mid-delivery',
  { skip: TEST_DATABASE_URL ? false : 'needs DATABASE_URL (one embedded database cannot be shared by two processes)' },
  async (t) => {
    const url = await createOwnDatabase(t, 'wh_crash');
    const tmp = mkdtempSync(path.join(tmpdir(), 'travelog-crash-'));
    const receiver = await startHttpsReceiver();
    writeFileSync(path.join(tmp, 'ca.pem'), receiver.ca);
    t.teardown(async () => {
      await receiver.close();
      rmSync(tmp, { recursive: true, force: true });
    });
    // A process that is still starting up can miss a short deadline (its event loop is busy loading
    // modules), so this one gets a roomier timeout and quick retries.
    // The lease (15 s) outlasts a restart on a loaded machine, so a release, not the expiry, frees the row.
    const timeoutMs = 10_000;
    const env = {
      DATABASE_URL: url,
      DATA_DIR: tmp,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      ROLE: 'all',
      WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
      WEBHOOK_TIMEOUT_MS: String(timeoutMs),
      WEBHOOK_RETRY_DELAYS_SECONDS: '0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5',
      // A CA for the receiver's self-signed certificate, the way an on-premises install adds one.
      NODE_EXTRA_CA_CERTS: path.join(tmp, 'ca.pem'),
    };
    const tenant = await runCli(['tenant', 'create', '--name', 'Crash d.o.o.', '--country', 'HR'], env);
    t.equal(tenant.code, 0, tenant.stderr);
    const key = (await runCli(['api-key', 'create', '--tenant', tenant.json.tenantId], env)).json.key as string;

    let onFirst: () => void = () => undefined;
    const firstArrived = new Promise<void>((r) => {
      onFirst = r;
    });
    receiver.respondWith((_req, i) => {
      if (i > 0) return { status: 200 };
      onFirst();
      return { status: 200, delayMs: 60_000 }; // the worker is dead long before this
    });

    const server = await startServer(env);
    t.teardown(() => server.kill());
    const call = async (base: string, method: string, p: string, body?: unknown) => {
      const res = await fetch(`${base}${p}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const sub = await call(server.baseUrl, 'POST', '/api/v1/webhooks', { url: `${receiver.url}hook`, eventTypes: ['employee.created'] });
    t.equal(sub.status, 201, JSON.stringify(sub.body));
    t.equal((await call(server.baseUrl, 'POST', '/api/v1/employees', { firstName: 'Ana', lastName: 'Horvat' })).status, 201);
    await firstArrived;
    // tsx runs the server in a child process of its own and cannot relay SIGKILL: kill the process
    // that writes the log lines (pino's pid), i.e. the server itself.
    const pid = Number(/"pid":(\d+)/.exec(server.logs.join(''))![1]);
    const exited = new Promise((r) => server.child.once('close', r));
    process.kill(pid, 'SIGKILL');
    const killedAt = Date.now();
    await exited;
    // The lease names the dead process's liveness session, and that session is gone with it: what
    // lets any other worker release the row at once (the release itself: takeover.int.test.ts; here
    // a restart on a loaded machine can take longer than the lease, so either may free the row).
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const owner = await waitFor(async () => {
      const r = await db.query<{ lease_owner: number | null; live: boolean }>(
        `select lease_owner, exists (select 1 from pg_locks l where l.locktype = 'advisory' and l.pid = d.lease_owner) as live
         from webhook_deliveries d`,
      );
      const row = r.rows[0];
      return row && !row.live ? row : undefined;
    });
    await db.end();
    t.type(owner.lease_owner, 'number', "the claim named the dead process's session, which no longer holds its lock");

    const again = await startServer(env);
    t.teardown(() => again.kill());
    const d = await waitFor(
      async () => {
        const list = await call(again.baseUrl, 'GET', `/api/v1/webhooks/${sub.body.id}/deliveries`);
        const item = list.body.items?.[0];
        return item?.status === 'Succeeded'
          ? (await call(again.baseUrl, 'GET', `/api/v1/webhooks/${sub.body.id}/deliveries/${item.deliveryId}`)).body
          : undefined;
      },
      30_000,
      'the redelivery to succeed',
    );
    const [first, ...later] = receiver.requests;
    const last = later.at(-1)!;
    t.ok(later.length >= 1, 'sent again by the new process');
    t.same(last.body, first!.body, 'the same bytes');
    t.equal(last.headers['service-event-id'], first!.headers['service-event-id'], 'the same event id');
    t.equal(last.headers['service-delivery-id'], first!.headers['service-delivery-id'], 'the same delivery row');
    t.ok(verifyServiceSignature(last.body, last.headers['service-signature'], sub.body.signingSecret), 'freshly signed');
    t.ok(
      d.attempts.every((a: any) => Date.parse(a.attemptedAt) >= killedAt - 50),
      "the dead process's attempt was never recorded",
    );
    t.equal(d.attemptCount, d.attempts.length);
    t.equal(await again.stop('SIGTERM'), 0);
  },
);
