// Issue 13: two real worker processes deliver, one is killed with SIGKILL while it holds leases,
// and the other takes them over long before they would have expired (the dead process's liveness
// session ended with it; src/webhooks/delivery/liveness.ts). Every delivery reaches a real HTTPS
// receiver, and only the dead worker's rows may arrive twice (at-least-once; the live worker's
// never do). PostgreSQL only: the embedded database belongs to one process.
//
// Time is asserted only structurally (released while the dead worker's leases still had most of
// their 45 s to run); the takeover time itself is printed here and measured in bench/webhooks.ts.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createOwnDatabase, TEST_DATABASE_URL } from '../../helpers/db.js';
import { startHttpsReceiver } from '../../helpers/https-receiver.js';
import { startRole, type RoleProcess } from '../../infra/role-process.js';
import { openDatabase } from '../../../src/infra/database.js';
import { migrateToLatest } from '../../../src/infra/migrate.js';
import { createTenant } from '../../../src/tenancy/tenants.js';
import { createApiKey, SCOPES } from '../../../src/tenancy/api-keys.js';
import { leaseMsFor } from '../../../src/webhooks/delivery/dispatcher.js';

// More rows than two dispatchers' 64 slots, so both hold leases when one dies.
const EMPLOYEES = 150;
// Attempts held by the receiver must not time out before the kill (a timeout would be a retry,
// i.e. a second send that has nothing to do with the takeover): 30 s, so the lease is 45 s.
const TIMEOUT_MS = 30_000;

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined> | T | undefined, pauseMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await probe();
    if (v !== undefined) return v;
    await sleep(pauseMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}

t.test(
  'kill -9 of one of two workers: the other takes its leases over before they expire',
  { skip: TEST_DATABASE_URL ? false : 'needs DATABASE_URL (two processes on one database)' },
  async (t) => {
    const url = await createOwnDatabase(t, 'wh_takeover');
    const tmp = mkdtempSync(path.join(tmpdir(), 'travelog-takeover-'));
    const receiver = await startHttpsReceiver();
    writeFileSync(path.join(tmp, 'ca.pem'), receiver.ca);
    const sql = new pg.Client({ connectionString: url });
    await sql.connect();
    const processes: RoleProcess[] = [];
    t.teardown(async () => {
      await Promise.allSettled(processes.map((p) => p.stop()));
      await sql.end();
      await receiver.close();
      rmSync(tmp, { recursive: true, force: true });
    });

    const setup = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 2 });
    await migrateToLatest(setup.db);
    const tenant = await createTenant(setup.db, { name: 'Takeover d.o.o.', country: 'HR' });
    const { key } = await createApiKey(setup.db, { tenantId: tenant.id, scopes: [...SCOPES] });
    await setup.close();

    // Every request waits for the gate, which opens right after the kill.
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      openGate = r;
    });
    receiver.respondWith(async () => {
      await gate;
      return { status: 204 };
    });

    const env = {
      DATABASE_URL: url,
      DATA_DIR: tmp,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_RETRY_DELAYS_SECONDS: '0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5',
      NODE_EXTRA_CA_CERTS: path.join(tmp, 'ca.pem'),
    };
    const survivor = await startRole({ ...env, ROLE: 'all' });
    processes.push(survivor);
    const victim = await startRole({ ...env, ROLE: 'webhooks' });
    processes.push(victim);
    const api = await until('the partner port', 60_000, () => survivor.partnerUrl());
    const call = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
      const res = await fetch(`${api}${p}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    // The victim's liveness session, by the pid its log lines carry (tsx runs the server in a child).
    const victimPid = await until('the victim to log its pid', 30_000, () => /"pid":(\d+)/.exec(victim.logs.join(''))?.[1]);
    const victimSession = await until('the victim to open its liveness session', 60_000, async () => {
      const r = await sql.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [
        `travelog-webhook-dispatcher:${victimPid}`,
      ]);
      return r.rows[0]?.pid;
    });

    const sub = await call('POST', '/api/v1/webhooks', { url: `${receiver.url}hook`, eventTypes: ['employee.created'] });
    t.equal(sub.status, 201, JSON.stringify(sub.body));
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < EMPLOYEES) {
          const i = next++;
          const r = await call('POST', '/api/v1/employees', { firstName: 'Kill', lastName: `Nine ${i}` });
          if (r.status !== 201) throw new Error(`create ${i}: ${r.status} ${JSON.stringify(r.body)}`);
        }
      }),
    );

    // Both workers full: 64 requests held each.
    const held = await until('both workers to hold leases', 60_000, async () => {
      const r = await sql.query<{ id: string; lease_until: Date }>(
        `select id::text, next_attempt_at as lease_until from webhook_deliveries where status = 'Pending' and lease_owner = $1`,
        [victimSession],
      );
      return receiver.requests.length >= 128 && r.rows.length > 0 ? r.rows : undefined;
    });
    const leaseEnds = Math.min(...held.map((r) => new Date(r.lease_until).getTime()));

    process.kill(Number(victimPid), 'SIGKILL');
    const killedAt = Date.now();
    await until('the victim to exit', 30_000, () => victim.exitCode() ?? undefined);
    const releasedAt = await until('the victim leases to be released', 60_000, async () => {
      const r = await sql.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where lease_owner = $1`, [victimSession]);
      return r.rows[0]!.n === 0 ? Date.now() : undefined;
    });
    t.comment(`takeover ${releasedAt - killedAt} ms after the kill (lease ${leaseMsFor(TIMEOUT_MS)} ms)`);
    t.ok(releasedAt < leaseEnds - 10_000, `released long before the leases would have expired (${leaseEnds - releasedAt} ms to spare)`);
    openGate();

    const total = await until(
      'every delivery to succeed',
      120_000,
      async () => {
        const r = await sql.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where status = 'Succeeded'`);
        return r.rows[0]!.n === EMPLOYEES ? EMPLOYEES : undefined;
      },
      250,
    );
    const sends = new Map<string, number>();
    for (const r of receiver.requests) {
      const id = String(r.headers['service-delivery-id']);
      sends.set(id, (sends.get(id) ?? 0) + 1);
    }
    t.equal(sends.size, total, 'every delivery reached the receiver');
    const victims = new Set(held.map((r) => r.id));
    const twice = [...sends].filter(([, n]) => n > 1).map(([id]) => id);
    t.ok(
      twice.every((id) => victims.has(id)),
      `only the dead worker's rows were sent twice (${twice.length} of its ${victims.size})`,
    );
    t.ok(
      [...sends].every(([id, n]) => n <= (victims.has(id) ? 2 : 1)),
      'the live worker sent each of its own deliveries once',
    );
    t.equal(survivor.exitCode(), null, 'the survivor kept running');
  },
);
