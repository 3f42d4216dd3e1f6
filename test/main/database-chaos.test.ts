// Chaos: real `npm start` processes against a PostgreSQL cluster of this test's own, which is
// stopped, restarted, frozen and has its sessions terminated. Every process must outlive it and
// recover by itself, with no acknowledged write lost: first one ROLE=all process (which starts
// while PostgreSQL is down), then the split roles api + projector + webhooks.
// PostgreSQL-only: PGlite lives in the process and cannot go away.
import t, { type Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createChaosCluster, type ChaosCluster } from '../infra/chaos-cluster.js';
import { startRole, type RoleProcess } from '../infra/role-process.js';
import { openDatabase } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrate.js';
import { createTenant } from '../../src/tenancy/tenants.js';
import { createApiKey, SCOPES } from '../../src/tenancy/api-keys.js';
import { CATALOG_GROUP } from '../../src/webhooks/catalog/projector.js';

const DB = 'travelog';
/** Generous bounds for a loaded machine: each is a deadline for a poll, never an assertion on time. */
const RECOVERY_MS = 120_000;
const REQUEST_BOUND_MS = 60_000;

type Cluster = ChaosCluster;

/** The processes under test: a poll gives up at once when one of them has exited (it will not recover). */
const watched: RoleProcess[] = [];

async function poll<T>(what: string, deadlineMs: number, probe: () => Promise<T | undefined>, pauseMs = 250): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const dead = watched.find((p) => p.exitCode() !== null);
    if (dead)
      throw new Error(`ROLE=${dead.role} exited (${String(dead.exitCode())}) while waiting for ${what}:\n${dead.logs.slice(-20).join('')}`);
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await sleep(pauseMs);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(REQUEST_BOUND_MS) });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

function partnerApi(base: string, key: string) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    /** One employee create: its id when acknowledged (201), otherwise the status (or 'error'). */
    async create(): Promise<{ id?: string; status: number | 'error' }> {
      try {
        const res = await fetch(`${base}/api/v1/employees`, {
          method: 'POST',
          headers,
          signal: AbortSignal.timeout(REQUEST_BOUND_MS),
          body: JSON.stringify({
            firstName: 'Chaos',
            lastName: `Monkey ${randomBytes(3).toString('hex')}`,
            email: `${randomUUID()}@example.com`,
          }),
        });
        const body = (await res.json().catch(() => undefined)) as { id?: string } | undefined;
        return res.status === 201 && body?.id ? { id: body.id, status: 201 } : { status: res.status };
      } catch {
        return { status: 'error' };
      }
    },
    async read(id: string): Promise<number> {
      const res = await fetch(`${base}/api/v1/employees/${id}`, { headers, signal: AbortSignal.timeout(REQUEST_BOUND_MS) });
      await res.arrayBuffer();
      return res.status;
    },
  };
}

const made = process.env.DATABASE_URL
  ? await createChaosCluster()
  : 'PostgreSQL-only (run with DATABASE_URL set; the test creates a cluster of its own): PGlite cannot go away';

t.test('every role outlives its database', { timeout: 900_000, skip: typeof made === 'string' ? made : false }, async (t) => {
  const cluster = made as Cluster;
  t.teardown(() => cluster.drop());
  const processes: RoleProcess[] = [];
  t.teardown(async () => {
    await Promise.all(processes.map((p) => p.stop()));
  });

  // The database, its schema and a tenant with a key, made before the servers start.
  await cluster.start();
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  await admin.query(`create database ${DB}`);
  await admin.end();
  const setup = await openDatabase({ databaseUrl: cluster.url(DB), dataDir: 'memory://', poolSize: 2 });
  await migrateToLatest(setup.db);
  const tenant = await createTenant(setup.db, { name: 'Chaos d.o.o.', country: 'HR' });
  const { key } = await createApiKey(setup.db, { tenantId: tenant.id, scopes: [...SCOPES] });
  await setup.close();

  const env = {
    DATABASE_URL: cluster.url(DB),
    SECRETS_KEY: randomBytes(32).toString('hex'),
    // Short bounds, so a frozen server fails requests within seconds here.
    DB_CONNECT_TIMEOUT_MS: '2000',
    DB_STATEMENT_TIMEOUT_MS: '3000',
    READY_TIMEOUT_MS: '1000',
  };
  const catalogCheckpoint = async (): Promise<string | null> => {
    const c = new pg.Client({ connectionString: cluster.url(DB) });
    await c.connect();
    try {
      return (
        (await c.query('select checkpoint from es_consumer_groups where group_name = $1', [CATALOG_GROUP])).rows[0]?.checkpoint ?? null
      );
    } finally {
      await c.end();
    }
  };
  const allAlive = (t: Test, procs: RoleProcess[], when: string): void => {
    for (const p of procs) t.equal(p.exitCode(), null, `ROLE=${p.role} is still running ${when}`);
  };
  const allReady = async (procs: RoleProcess[]): Promise<void> => {
    for (const p of procs)
      await poll(`ROLE=${p.role} ready`, RECOVERY_MS, async () =>
        (await get(`${p.operatorUrl}/readyz`)).status === 200 ? true : undefined,
      );
  };

  /** The disruptions, against processes already running and ready; `api` serves the partner API. */
  const disrupt = async (t: Test, procs: RoleProcess[], apiBase: string): Promise<void> => {
    const api = partnerApi(apiBase, key);
    const acknowledged: string[] = [];
    const write = async (): Promise<string> => {
      const id = await poll('an acknowledged write', RECOVERY_MS, async () => (await api.create()).id);
      acknowledged.push(id);
      return id;
    };
    await write();

    await t.test('terminated backends', async (t: Test) => {
      const ended = await cluster.terminateBackends(DB);
      t.ok(ended > 0, `sessions were terminated (${ended})`);
      await sleep(1000); // the 'error' events of the idle connections arrive
      allAlive(t, procs, 'after its connections were terminated');
      await write();
      await allReady(procs);
      allAlive(t, procs, 'after recovering');
    });

    await t.test('a restart under load', async (t: Test) => {
      let loading = true;
      let failed = 0;
      const load = (async () => {
        while (loading) {
          const r = await api.create();
          if (r.id) acknowledged.push(r.id);
          else failed++;
        }
      })();
      await poll('writes under load', RECOVERY_MS, async () => (acknowledged.length >= 3 ? true : undefined));
      await cluster.stop();
      await sleep(2000);
      await cluster.start();
      const before = acknowledged.length;
      await poll('writes after the restart', RECOVERY_MS, async () => (acknowledged.length >= before + 5 ? true : undefined));
      loading = false;
      await load;
      t.comment(`${acknowledged.length} acknowledged, ${failed} refused while PostgreSQL was away`);
      allAlive(t, procs, 'after PostgreSQL restarted');
      await allReady(procs);
    });

    await t.test('a frozen server fails requests and readiness in time', async (t: Test) => {
      await cluster.freeze();
      try {
        for (const p of procs) {
          const ready = await get(`${p.operatorUrl}/readyz`);
          t.equal(ready.status, 503, `ROLE=${p.role}: operator /readyz says not ready`);
          t.match(ready.body, { status: 'not_ready', database: 'down' });
          t.equal((await get(`${p.operatorUrl}/healthz`)).status, 200, `ROLE=${p.role}: alive all the same`);
        }
        t.equal((await get(`${apiBase}/readyz`)).status, 503, 'partner /readyz says not ready');
        const refused = await api.create();
        t.equal(refused.status, 503, 'a write fails with 503 instead of hanging');
      } finally {
        await cluster.thaw();
      }
      await write();
      await allReady(procs);
      allAlive(t, procs, 'after PostgreSQL thawed');
    });

    await t.test('no acknowledged write is lost, and every role works again', async (t: Test) => {
      const before = await catalogCheckpoint();
      await write();
      for (const id of acknowledged) {
        await poll(`employee ${id} readable`, RECOVERY_MS, async () => ((await api.read(id)) === 200 ? true : undefined));
      }
      t.pass(`all ${acknowledged.length} acknowledged writes are readable`);
      await poll('the webhook catalog projector moving on', RECOVERY_MS, async () =>
        (await catalogCheckpoint()) !== before ? true : undefined,
      );
      t.pass('the webhook catalog projector processes new events');
      allAlive(t, procs, 'at the end');
    });
  };

  await t.test('ROLE=all', async (t) => {
    // Started while PostgreSQL is down: it waits, alive and not ready, instead of exiting.
    await cluster.stop();
    const all = await startRole({ ...env, ROLE: 'all' });
    processes.push(all);
    watched.splice(0, watched.length, all);
    for (let i = 0; i < 3; i++) {
      t.equal((await get(`${all.operatorUrl}/healthz`)).status, 200, 'alive while waiting for PostgreSQL');
      const ready = await get(`${all.operatorUrl}/readyz`);
      t.same([ready.status, ready.body.status, ready.body.phase], [503, 'not_ready', 'starting'], 'not ready while waiting');
      await sleep(500);
    }
    t.equal(all.exitCode(), null, 'still running without a database');
    t.equal((await get(`${all.operatorUrl}/metrics`)).status, 200, 'metrics are served while waiting');
    await cluster.start();
    const base = await poll('the partner port', RECOVERY_MS, async () => all.partnerUrl());
    await allReady([all]);
    t.equal((await get(`${base}/metrics`)).status, 404, 'no metrics on the partner port');
    await disrupt(t, [all], base);
    watched.length = 0;
    await all.stop();
  });

  await t.test('ROLE=api, projector and webhooks', async (t) => {
    const roles = await Promise.all(['api', 'projector', 'webhooks'].map((role) => startRole({ ...env, ROLE: role })));
    processes.push(...roles);
    watched.splice(0, watched.length, ...roles);
    const api = roles[0]!;
    const base = await poll('the partner port', RECOVERY_MS, async () => api.partnerUrl());
    await allReady(roles);
    for (const p of roles) {
      const metrics = await get(`${p.operatorUrl}/metrics`);
      t.equal(metrics.status, 200, `ROLE=${p.role} serves metrics on its operator listener`);
      t.match(String(metrics.body), /process_cpu_user_seconds_total/);
    }
    await disrupt(t, roles, base);
  });
});
