// The liveness sessions of dispatchers (issue 13), without processes: claims name the claiming
// session; a release frees exactly the rows of sessions that are gone, never those of a live one
// (no duplicate in normal operation), and never looks at retries waiting far ahead. A session
// terminated by the server is noticed and replaced. PostgreSQL only: on the embedded database
// claims carry no owner and the lease expiry alone applies (crash.int.test.ts covers that).
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openTestDatabase, TEST_DATABASE_URL } from '../../helpers/db.js';
import { claimDue } from '../../../src/webhooks/delivery/outbox.js';
import { openLivenessSession, type LivenessSession } from '../../../src/webhooks/delivery/liveness.js';
import { waitFor } from '../../helpers/webhook-harness.js';

const LEASE_MS = 15_000;

t.test(
  'release frees the rows of a session that is gone, and only those',
  { skip: TEST_DATABASE_URL ? false : 'needs DATABASE_URL' },
  async (t) => {
    const handle = await openTestDatabase(t);
    const db = handle.db;
    const open = (): LivenessSession =>
      openLivenessSession({ connectionString: TEST_DATABASE_URL!, searchPath: handle.searchPath, name: `liveness-test:${process.pid}` });
    const live = open();
    const dead = open();
    const other = open();
    t.teardown(() => Promise.all([live.close(), dead.close(), other.close()]));
    await Promise.all([live.opened, dead.opened, other.opened]);
    t.type(live.owner(), 'number');
    t.not(live.owner(), dead.owner(), 'one session (and pid) per dispatcher');

    const tenant = randomUUID();
    const sub = randomUUID();
    await sql`insert into webhook_subscriptions (id, tenant_id, url, event_types, secret_sealed)
    values (${sub}::uuid, ${tenant}::uuid, 'https://partner.example/hook', '{employee.created}', 'x')`.execute(db);
    await sql`insert into webhook_deliveries (id, subscription_id, tenant_id, event_id, source_event_id, event_type, payload, status, next_attempt_at)
    select gen_random_uuid(), ${sub}::uuid, ${tenant}::uuid, gen_random_uuid(), gen_random_uuid(), 'employee.created', '\\x7b7d', 'Pending', now() - interval '1 second'
    from generate_series(1, 10)`.execute(db);
    // A retry waiting a day, owned (as no claim would leave it) by a session that does not exist: out of the release's range.
    await sql`insert into webhook_deliveries (id, subscription_id, tenant_id, event_id, source_event_id, event_type, payload, status, next_attempt_at, lease_owner)
    values (gen_random_uuid(), ${sub}::uuid, ${tenant}::uuid, gen_random_uuid(), gen_random_uuid(), 'employee.created', '\\x7b7d', 'Pending', now() + interval '1 day', 1)`.execute(
      db,
    );

    const now = new Date();
    const until = new Date(now.getTime() + LEASE_MS);
    const a = await claimDue(db, 4, now, until, live.owner());
    const b = await claimDue(db, 4, now, until, dead.owner());
    t.equal(a.length + b.length, 8);
    const owners = await sql<{ lease_owner: number | null; n: number }>`
    select lease_owner, count(*)::int as n from webhook_deliveries where next_attempt_at < now() + interval '1 hour' group by lease_owner`.execute(
      db,
    );
    t.same(
      Object.fromEntries(owners.rows.map((r) => [String(r.lease_owner), r.n])),
      { [String(live.owner())]: 4, [String(dead.owner())]: 4, null: 2 },
      'claims name the claiming session',
    );

    t.equal(await other.releaseAbandoned(LEASE_MS), 0, 'nothing is released while every owner lives');

    await dead.close();
    const released = await other.releaseAbandoned(LEASE_MS);
    t.equal(released, 4, "the dead session's rows, and nothing else");
    const due = await sql<{ id: string }>`
    select id::text from webhook_deliveries where status = 'Pending' and next_attempt_at <= now() and lease_owner is null`.execute(db);
    t.same(new Set(due.rows.map((r) => r.id)), new Set([...b.map((r) => r.id), ...(await unclaimed())]), 'due again at once');
    const kept = await sql<{
      n: number;
    }>`select count(*)::int as n from webhook_deliveries where lease_owner = ${live.owner()}::int`.execute(db);
    t.equal(kept.rows[0]!.n, 4, "the live session's rows stay leased");
    const far = await sql<{
      lease_owner: number | null;
    }>`select lease_owner from webhook_deliveries where next_attempt_at > now() + interval '1 hour'`.execute(db);
    t.equal(far.rows[0]!.lease_owner, 1, 'a retry waiting a day ahead is never looked at');

    async function unclaimed(): Promise<string[]> {
      const r = await sql<{
        id: string;
      }>`select id::text from webhook_deliveries where lease_token is null and next_attempt_at < now() + interval '1 hour'`.execute(db);
      return r.rows.map((x) => x.id);
    }
  },
);

t.test(
  'a session the server terminates is replaced by a new one',
  { skip: TEST_DATABASE_URL ? false : 'needs DATABASE_URL' },
  async (t) => {
    const handle = await openTestDatabase(t);
    const lost: unknown[] = [];
    const s = openLivenessSession({
      connectionString: TEST_DATABASE_URL!,
      searchPath: handle.searchPath,
      name: `liveness-test:${process.pid}`,
      onLost: (err) => lost.push(err),
    });
    t.teardown(() => s.close());
    await s.opened;
    const first = s.owner()!;
    await sql`select pg_terminate_backend(${first}::int)`.execute(handle.db);
    // The loss is seen on the next round trip (a release) or by the connection's error event.
    const second = await waitFor(async () => {
      await s.releaseAbandoned(LEASE_MS);
      const o = s.owner();
      return o !== null && o !== first ? o : undefined;
    }, 30_000);
    t.ok(lost.length >= 1, 'the loss was reported');
    const held = await sql<{ n: number }>`
    select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = ${second}::int and granted`.execute(handle.db);
    t.equal(held.rows[0]!.n, 1, 'the new session holds its lock');
  },
);
