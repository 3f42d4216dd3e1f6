// An Idempotency-Key claim left unanswered (found from outside, session 22: a kill -9, or a
// database stopped after the commit, left the key answering "still being processed" for 24 hours,
// and a committed create was answered 503). The claim is judged by the log once abandoned: a
// request that recorded nothing runs again under the key; one that recorded something is reported
// with the resources it changed; an answer that could not be stored is still sent.
// In process on both PostgreSQL stores (the server's and PGlite: the setup writes es_events rows
// directly); a real server killed with SIGKILL under load on PostgreSQL. The EventStoreDB store's
// part (streamsOfRequest) is held to the event-store contract suite.
import t, { type Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { formatPosition } from '../../../src/eventstore/port.js';
import { outcomeOf } from '../../../src/http/idempotency/abandoned-claim.js';
import { startTestApp } from '../../helpers/app.js';
import { createOwnDatabase, TEST_DATABASE_URL } from '../../helpers/db.js';
import { runCli, startServer } from '../../helpers/processes.js';

/** The killed server's window: short, so its retries are judged within the test. */
const ABANDONED_AFTER_SECONDS = 1;
/**
 * The in-process app's window: long enough that a loaded machine never crosses it between two
 * requests; a claim is made abandoned by moving its created_at back, never by waiting.
 */
const IN_PROCESS_WINDOW_SECONDS = 60;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

t.test('unanswered claims, in process', async (t) => {
  const app = await startTestApp(t, { env: { IDEMPOTENCY_ABANDONED_AFTER_SECONDS: String(IN_PROCESS_WINDOW_SECONDS) } });
  const db = app.rt.handle.db;
  /** Moves a claim just past the window (its request's events stay within the time the log is read to). */
  const abandon = (key: string) =>
    sql`update idempotency_keys set created_at = now() - make_interval(secs => ${IN_PROCESS_WINDOW_SECONDS + 1})
      where tenant_id = ${app.tenant.id}::uuid and key = ${key}`.execute(db);
  /** The database refuses the table's writes for which `when` holds (a real error, as a failing database gives); returns the undo. */
  const refuseIn = async (t: Test, table: string, op: 'insert' | 'update', when: string): Promise<() => Promise<void>> => {
    const name = `refuse_${table}_${op}`;
    await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin if ${sql.raw(when)} then raise exception 'refused by the test'; end if; return new; end $$`.execute(db);
    await sql`create trigger ${sql.raw(name)} before ${sql.raw(op)} on ${sql.raw(table)} for each row execute function ${sql.raw(name)}()`.execute(
      db,
    );
    const allow = async (): Promise<void> => {
      await sql`drop trigger if exists ${sql.raw(name)} on ${sql.raw(table)}`.execute(db);
      await sql`drop function if exists ${sql.raw(name)}()`.execute(db);
    };
    t.teardown(allow);
    return allow;
  };
  const employees = async (lastName: string): Promise<string[]> =>
    (await app.request('GET', '/api/v1/employees?pageSize=200')).body.items
      .filter((e: { lastName: string }) => e.lastName === lastName)
      .map((e: { id: string }) => e.id);

  t.test('an answer that cannot be stored is still sent; a retry is then told what was done', async (t) => {
    // The database refuses to store the 201 (as when it goes away after the commit).
    const allow = await refuseIn(t, 'idempotency_keys', 'update', 'new.status_code = 201');
    const headers = { 'idempotency-key': 'lost-answer' };
    const body = { firstName: 'Lost', lastName: 'Answer' };
    const first = await app.request('POST', '/api/v1/employees', { body, headers });
    t.equal(first.status, 201, `the commit is answered as it happened: ${first.text}`);
    await allow();

    const soon = await app.request('POST', '/api/v1/employees', { body, headers });
    t.same([soon.status, soon.body.code], [409, 'IDEMPOTENCY_KEY_IN_USE'], 'within the window: still in use');
    t.ok(Number(soon.headers.get('retry-after')) >= 1, 'with the seconds until it is judged');

    await abandon('lost-answer');
    const judged = await app.request('POST', '/api/v1/employees', { body, headers });
    t.same(
      [judged.status, judged.body.code, judged.body.resources],
      [409, 'IDEMPOTENCY_REPLAY_UNAVAILABLE', [`/api/v1/employees/${first.body.id}`]],
      judged.text,
    );
    const again = await app.request('POST', '/api/v1/employees', { body, headers });
    t.equal(again.headers.get('idempotent-replayed'), 'true', 'the verdict is stored');
    t.equal(again.text, judged.text);
    t.same(await employees('Answer'), [first.body.id], 'one employee: the retry did not run again');
  });

  t.test('a claim whose request recorded nothing is taken over by the retry, which runs', async (t) => {
    const headers = { 'idempotency-key': 'dead-request' };
    const body = { firstName: 'Dead', lastName: 'Request' };
    const first = await app.request('POST', '/api/v1/employees', { body, headers });
    t.equal(first.status, 201);
    // Made into the claim a killed process leaves: no answer, its request id, the log's head now
    // (so nothing after it carries that id), and old enough to be abandoned.
    const head = (
      await sql<{ p: string }>`select tx_id::text || '/' || global_position as p from es_events
      order by tx_id desc, global_position desc limit 1`.execute(db)
    ).rows[0]!.p;
    await sql`update idempotency_keys set status_code = null, response_headers = null, response_body = null,
      request_id = 'killed-request', log_position = ${head}, created_at = now() - interval '1 hour'
      where tenant_id = ${app.tenant.id}::uuid and key = 'dead-request'`.execute(db);

    const retried = await app.request('POST', '/api/v1/employees', { body, headers });
    t.equal(retried.status, 201, retried.text);
    t.not(retried.body.id, first.body.id, 'it ran (the first employee was made before the claim, as far as the log tells)');
    const replay = await app.request('POST', '/api/v1/employees', { body, headers });
    t.same([replay.status, replay.headers.get('idempotent-replayed'), replay.body.id], [201, 'true', retried.body.id], 'and is replayed');
  });

  t.test('after a server error a retry is judged once the append has settled: run again if nothing was recorded', async (t) => {
    // The append itself is refused (a database error that is not a lost connection: a 500, nothing written).
    const allow = await refuseIn(t, 'es_events', 'insert', 'true');
    const headers = { 'idempotency-key': 'failed-before-commit' };
    const body = { firstName: 'Failed', lastName: 'Before' };
    const failed = await app.request('POST', '/api/v1/employees', { body, headers });
    t.equal(failed.status, 500, failed.text);
    await allow();
    const soon = await app.request('POST', '/api/v1/employees', { body, headers });
    t.equal(soon.body.code, 'IDEMPOTENCY_KEY_IN_USE', 'until its append can no longer commit');
    t.match(soon.body.detail, /or it failed\. Whether it was carried out is judged in \d+ s/, 'saying when it will be judged');
    const wait = Number(soon.headers.get('retry-after'));
    t.ok(wait > 1 && wait <= 32, `Retry-After is the statement timeout and margin that remain (${wait} s), not the window`);
    // Time passes: past the statement timeout and the client's margin.
    await sql`update idempotency_keys set failed_at = failed_at - interval '1 minute'
      where tenant_id = ${app.tenant.id}::uuid and key = 'failed-before-commit'`.execute(db);
    const retried = await app.request('POST', '/api/v1/employees', { body, headers });
    t.equal(retried.status, 201, `judged before the window: ${retried.text}`);
    t.same(await employees('Before'), [retried.body.id]);
  });

  t.test('after a server error that followed the commit, the retry is told what was done', async (t) => {
    const head = (
      await sql<{ p: string }>`select tx_id::text || '/' || global_position as p from es_events
      order by tx_id desc, global_position desc limit 1`.execute(db)
    ).rows[0]!.p;
    const headers = { 'idempotency-key': 'failed-after-commit' };
    const body = { firstName: 'Failed', lastName: 'After' };
    const first = await app.request('POST', '/api/v1/employees', { body, headers });
    t.equal(first.status, 201);
    // Made into the claim of a request answered 503 after its commit (a read-your-writes wait that
    // failed): its answer not stored, marked failed, its events after the head it noted.
    await sql`update idempotency_keys set status_code = null, response_headers = null, response_body = null,
      failed_at = now() - interval '1 minute', log_position = ${head}
      where tenant_id = ${app.tenant.id}::uuid and key = 'failed-after-commit'`.execute(db);
    const retried = await app.request('POST', '/api/v1/employees', { body, headers });
    t.same(
      [retried.status, retried.body.code, retried.body.resources],
      [409, 'IDEMPOTENCY_REPLAY_UNAVAILABLE', [`/api/v1/employees/${first.body.id}`]],
      `judged before the window, and no second employee: ${retried.text}`,
    );
    t.same(await employees('After'), [first.body.id]);
  });

  t.test('concurrent retries of an abandoned claim with one X-Request-Id: one runs, the other replays or waits', async (t) => {
    const headers = { 'idempotency-key': 'two-retries', 'x-request-id': 'client-chosen-id' };
    const body = { firstName: 'Two', lastName: 'Retries' };
    t.equal((await app.request('POST', '/api/v1/employees', { body, headers })).status, 201);
    const head = (
      await sql<{ p: string }>`select tx_id::text || '/' || global_position as p from es_events
      order by tx_id desc, global_position desc limit 1`.execute(db)
    ).rows[0]!.p;
    await sql`update idempotency_keys set status_code = null, response_headers = null, response_body = null,
      log_position = ${head}, created_at = now() - interval '1 hour'
      where tenant_id = ${app.tenant.id}::uuid and key = 'two-retries'`.execute(db);
    const answers = await Promise.all([1, 2].map(() => app.request('POST', '/api/v1/employees', { body, headers })));
    const made = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
    t.equal(made.size, 1, `one retry ran; the other replays it or is told "in use": ${answers.map((a) => a.status).join(', ')}`);
    t.ok(
      answers.every((a) => a.status === 201 || a.body.code === 'IDEMPOTENCY_KEY_IN_USE'),
      answers.map((a) => a.text).join('\n'),
    );
    t.equal((await employees('Retries')).length, 2, 'the first (before the head, as if lost) and the one retry that ran');
  });

  t.test('only the partner’s resources count as carried out, not helper streams', async (t) => {
    const store = app.rt.store;
    const head = await store.headPosition();
    const meta = (correlationId: string) => ({
      tenantId: app.tenant.id,
      actor: { system: 'test' },
      correlationId,
      causationId: randomUUID(),
      occurredAt: new Date().toISOString(),
    });
    const id = randomUUID();
    await store.appendToStream(
      `codeClaim-${app.tenant.id}-costCenter-X${id}`,
      [{ id: randomUUID(), type: 'CodeClaimed', data: {}, metadata: meta('only-helpers') }],
      'any',
    );
    const claim = (requestId: string) => ({
      tenantId: app.tenant.id,
      requestId,
      logPosition: head === undefined ? '0/0' : formatPosition(head),
      claimedAt: new Date(),
    });
    t.same(await outcomeOf(store, claim('only-helpers'), 60_000), { kind: 'not-carried-out' });
    await store.appendToStream(`costCenter-${id}`, [{ id: randomUUID(), type: 'Probe', data: {}, metadata: meta('only-helpers') }], 'any');
    t.same(await outcomeOf(store, claim('only-helpers'), 60_000), { kind: 'carried-out', resources: [`/api/v1/cost-centers/${id}`] });
    t.same(
      await outcomeOf(store, { ...claim('only-helpers'), tenantId: randomUUID() }, 60_000),
      { kind: 'not-carried-out' },
      'another tenant’s',
    );
    t.same(await outcomeOf(store, { ...claim('only-helpers'), logPosition: null }, 60_000), { kind: 'unknown' });
  });

  t.test('a log head that cannot be read fails the request before anything is claimed (found from outside, session 22)', async (t) => {
    const headers = { 'idempotency-key': 'head-unread' };
    const body = { firstName: 'Head', lastName: 'Unread' };
    // The event log is away (a real database error on the head's read), then back.
    await sql`alter table es_events rename to es_events_away`.execute(db);
    let renamed = true;
    t.teardown(async () => {
      if (renamed) await sql`alter table es_events_away rename to es_events`.execute(db);
    });
    const failed = await app.request('POST', '/api/v1/employees', { body, headers });
    await sql`alter table es_events_away rename to es_events`.execute(db);
    renamed = false;
    t.ok(failed.status >= 500, `failed: ${failed.status}`);
    const claims = await sql<{ n: number }>`select count(*)::int as n from idempotency_keys
      where tenant_id = ${app.tenant.id}::uuid and key = 'head-unread'`.execute(db);
    t.equal(Number(claims.rows[0]!.n), 0, 'no claim that could never be judged');
    const retried = await app.request('POST', '/api/v1/employees', { body, headers });
    t.equal(retried.status, 201, `the retry runs at once: ${retried.text}`);
    t.same(await employees('Unread'), [retried.body.id]);
  });

  t.test('a claim made before requests were named in it is reported as unknown, never run again', async (t) => {
    const headers = { 'idempotency-key': 'legacy-claim' };
    const body = { firstName: 'Legacy', lastName: 'Claim' };
    t.equal((await app.request('POST', '/api/v1/employees', { body, headers })).status, 201);
    await sql`update idempotency_keys set status_code = null, response_body = null, request_id = null, log_position = null,
      created_at = now() - interval '1 hour' where tenant_id = ${app.tenant.id}::uuid and key = 'legacy-claim'`.execute(db);
    const retried = await app.request('POST', '/api/v1/employees', { body, headers });
    t.same([retried.status, retried.body.code, retried.body.resources], [409, 'IDEMPOTENCY_REPLAY_UNAVAILABLE', undefined], retried.text);
    t.equal((await employees('Claim')).length, 1);
  });
});

t.test(
  'a real server killed with SIGKILL under idempotent creates: every key ends with one employee',
  { skip: TEST_DATABASE_URL ? false : 'needs DATABASE_URL (one embedded database cannot be shared by two processes)' },
  async (t) => {
    const url = await createOwnDatabase(t, 'idem_kill');
    const tmp = mkdtempSync(path.join(tmpdir(), 'travelog-idem-'));
    t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: url,
      DATA_DIR: tmp,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      RATE_LIMIT: 'off',
      IDEMPOTENCY_ABANDONED_AFTER_SECONDS: String(ABANDONED_AFTER_SECONDS),
    };
    const tenant = await runCli(['tenant', 'create', '--name', 'Kill d.o.o.', '--country', 'HR'], env);
    t.equal(tenant.code, 0, tenant.stderr);
    const apiKey = (await runCli(['api-key', 'create', '--tenant', tenant.json.tenantId], env)).json.key as string;
    const post = async (base: string, key: string): Promise<{ status: number; body: any }> => {
      const res = await fetch(`${base}/api/v1/employees`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ firstName: 'Kill', lastName: key }),
      });
      return { status: res.status, body: await res.json() };
    };

    const server = await startServer(env);
    t.teardown(() => server.kill());
    t.match(
      server.logs.join(''),
      /IDEMPOTENCY_ABANDONED_AFTER_SECONDS is shorter than a request can run/,
      'a window this short is warned of',
    );
    const keys: string[] = [];
    const unanswered: string[] = [];
    let killed = false;
    const client = async (c: number): Promise<void> => {
      for (let i = 0; !killed; i++) {
        const key = `k-${c}-${i}`;
        keys.push(key);
        try {
          const r = await post(server.baseUrl, key);
          if (r.status !== 201) unanswered.push(key);
        } catch {
          unanswered.push(key); // the connection died with the process
        }
      }
    };
    const clients = Array.from({ length: 8 }, (_, c) => client(c));
    await sleep(1500);
    const pid = Number(/"pid":(\d+)/.exec(server.logs.join(''))![1]);
    const exited = new Promise((r) => server.child.once('close', r));
    killed = true;
    process.kill(pid, 'SIGKILL');
    await exited;
    await Promise.all(clients);
    t.ok(unanswered.length > 0, `requests were cut off by the kill (${unanswered.length} of ${keys.length})`);

    const again = await startServer(env);
    t.teardown(() => again.kill());
    const outcomes: Record<string, number> = {};
    for (const key of unanswered) {
      let r = await post(again.baseUrl, key);
      for (let n = 0; r.status === 409 && r.body.code === 'IDEMPOTENCY_KEY_IN_USE' && n < 20; n++) {
        await sleep(ABANDONED_AFTER_SECONDS * 500);
        r = await post(again.baseUrl, key);
      }
      const verdict = r.status === 201 ? 'ran or replayed' : r.body.code;
      outcomes[verdict] = (outcomes[verdict] ?? 0) + 1;
      if (r.body.code === 'IDEMPOTENCY_REPLAY_UNAVAILABLE') t.match(r.body.resources, [/^\/api\/v1\/employees\/[0-9a-f-]{36}$/], key);
      else t.equal(r.status, 201, `${key}: ${JSON.stringify(r.body)}`);
    }
    t.comment(`after the kill: ${JSON.stringify(outcomes)}`);

    const check = new pg.Client({ connectionString: url });
    await check.connect();
    t.teardown(() => check.end());
    const rows = await check.query<{ last_name: string; n: number }>(
      `select data->'profile'->>'lastName' as last_name, count(*)::int as n from es_events where type = 'EmployeeRegistered' group by 1`,
    );
    const counts = new Map(rows.rows.map((r) => [r.last_name, r.n]));
    t.same(
      keys.filter((k) => counts.get(k) !== 1),
      [],
      'every key sent (answered, cut off and retried) made exactly one employee',
    );
    t.equal(counts.size, keys.length, 'and no other');
    const stuck = await check.query(`select key from idempotency_keys where status_code is null`);
    t.same(stuck.rows, [], 'no key is left unanswered');
  },
);
