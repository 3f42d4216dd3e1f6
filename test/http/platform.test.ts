// The HTTP platform over real HTTP: authentication, problem responses, request ids, the
// OpenAPI document and reference page, health, readiness and metrics.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from '../../src/infra/database.js';
import { revokeApiKey } from '../../src/tenancy/api-keys.js';
import { setWorkflow } from '../../src/tenancy/tenants.js';
import { startTestApp } from '../helpers/app.js';
import { startOperatorServer } from '../../src/main/operator-server.js';

t.test('platform', async (t) => {
  const app = await startTestApp(t, { env: { READY_MAX_LAG_EVENTS: '0' } });
  // Metrics are served on the operator listener only (src/main/operator-server.ts), not the partner port.
  const operator = await startOperatorServer({
    host: '127.0.0.1',
    port: 0,
    metrics: app.rt.metrics,
    logger: app.rt.logger,
    readyMaxLagEvents: 0,
  });
  operator.attach({ db: app.rt.handle.db, runner: app.rt.runner, metrics: app.rt.metrics, config: app.rt.config });
  t.teardown(() => operator.close());
  const scrape = async () => {
    const res = await fetch(`${operator.address}/metrics`);
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  t.test('liveness, readiness and metrics are public', async (t) => {
    const live = await app.request('GET', '/healthz', { key: null });
    t.same([live.status, live.body], [200, { status: 'ok' }]);
    const ready = await app.request('GET', '/readyz', { key: null });
    t.equal(ready.status, 200);
    t.same(ready.body, { status: 'ready', database: 'up', projectionsCaughtUp: true }, 'no positions or counts on the partner port');
    const metrics = await scrape();
    t.equal(metrics.status, 200);
    t.match(metrics.headers.get('content-type'), /text\/plain/);
    t.match(metrics.text, /http_request_duration_seconds_bucket\{.*route="\/readyz"/);
    t.match(metrics.text, /projection_lag_events\{projection="travel-entries"\} 0/);
    const onPartnerPort = await app.request('GET', '/metrics', { key: null });
    t.equal(onPartnerPort.status, 404, 'metrics are served on the operator listener only, never on the partner port');
  });

  t.test('readiness reports projection lag beyond the bound', async (t) => {
    await app.rt.runner.stop();
    t.teardown(() => app.rt.runner.start());
    const now = new Date().toISOString();
    await app.rt.store.appendToStream(
      `employee-${randomUUID()}`,
      [
        {
          id: randomUUID(),
          type: 'EmployeeRegistered',
          data: {
            employeeId: randomUUID(),
            profile: {
              firstName: 'Lag',
              lastName: 'Ging',
              status: 'Active',
              isAccountOwner: false,
              residency: 'Resident',
              customFields: {},
            },
            at: now,
          },
          metadata: { tenantId: app.tenant.id, actor: { system: 'test' }, correlationId: 'c', causationId: 'c', occurredAt: now },
        },
      ],
      'no_stream',
    );
    // The lag counts events visible in the feed; on PostgreSQL a commit shows there once every older
    // transaction on the server has ended (a parallel test file may hold one), so give it time.
    let ready = await app.request('GET', '/readyz', { key: null });
    for (const deadline = Date.now() + 30_000; ready.status !== 503 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 50));
      ready = await app.request('GET', '/readyz', { key: null });
    }
    t.equal(ready.status, 503);
    t.same(ready.body, { status: 'not_ready', database: 'up', projectionsCaughtUp: false });
    operator.setPhase('running');
    const detail = await fetch(`${operator.address}/readyz`);
    t.equal(detail.status, 503);
    const detailBody = (await detail.json()) as any;
    t.match(detailBody, { status: 'not_ready', database: 'up', maxLagEvents: 0 }, 'the operator listener says how far');
    t.match(
      detailBody.projections.find((p: { name: string }) => p.name === 'employees'),
      { lag: 1, caughtUp: false },
    );
    const metrics = await scrape();
    t.match(metrics.text, /projection_lag_events\{projection="employees"\} 1/);
  });

  t.test('a key is required, must be valid and must carry the scope', async (t) => {
    const none = await app.request('GET', '/api/v1/company', { key: null });
    t.equal(none.status, 401);
    t.match(none.headers.get('content-type'), /^application\/problem\+json/);
    t.match(none.body, { status: 401, code: 'UNAUTHENTICATED', type: /^https:\/\//, title: 'Unauthorized' });
    t.equal(none.headers.get('www-authenticate'), 'Bearer realm="travelog"');
    t.equal((await app.request('GET', '/api/v1/company', { key: 'tvl_nonsense' })).status, 401);
    const forged = `${app.tenant.key.slice(0, -4)}AAAA`;
    t.equal((await app.request('GET', '/api/v1/company', { key: forged })).status, 401, 'a known prefix with a wrong secret');
    t.equal(
      (await app.request('GET', '/api/v1/company', { headers: { authorization: `Basic ${app.tenant.key}` }, key: null })).status,
      401,
    );

    const writer = await app.newTenant({ scopes: ['write'] });
    const denied = await app.request('GET', '/api/v1/company', { key: writer.key });
    t.same([denied.status, denied.body.code, denied.body.requiredScope], [403, 'INSUFFICIENT_SCOPE', 'read']);

    const revoked = await app.newTenant();
    t.equal((await app.request('GET', '/api/v1/company', { key: revoked.key })).status, 200);
    await revokeApiKey(app.rt.handle.db, revoked.apiKeyId);
    t.equal((await app.request('GET', '/api/v1/company', { key: revoked.key })).status, 401, 'a revoked key stops working at once');
  });

  // Keys are cached between requests; the cache must never outlive a change made elsewhere.
  t.test(
    'key cache: a change in another process reaches this one; a lost listener turns caching off',
    { skip: app.rt.handle.kind !== 'postgres' && 'one process on the embedded database' },
    async (t) => {
      const { connectionString, searchPath } = app.rt.handle;
      const other = await openDatabase({ databaseUrl: connectionString, dataDir: 'memory://', searchPath, poolSize: 2 });
      t.teardown(() => other.close());
      const status = async (key: string) => (await app.request('GET', '/api/v1/company', { key })).status;
      const eventually = async (key: string, want: number) => {
        for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
          if ((await status(key)) === want) return want;
        }
        return status(key);
      };

      // A change behind the cache's back (no announcement) shows that a cached key is not re-read...
      const silent = await app.newTenant();
      t.equal(await status(silent.key), 200);
      await sql`update api_keys set revoked_at = now() where id = ${silent.apiKeyId}::uuid`.execute(other.db);
      t.equal(await status(silent.key), 200, 'served from the cache');
      // ...and a revocation through the API of another process, announced by NOTIFY, is heard.
      const revoked = await app.newTenant();
      t.equal(await status(revoked.key), 200);
      await revokeApiKey(other.db, revoked.apiKeyId);
      t.equal(await eventually(revoked.key, 401), 401, 'revoked in another process');
      t.equal(await status(silent.key), 401, 'the NOTIFY cleared the whole cache');

      // A tenant change elsewhere reaches the principal's tenant too.
      const company = await app.newTenant();
      t.equal((await app.request('GET', '/api/v1/company', { key: company.key })).body.approvalWorkflow, null);
      await setWorkflow(other.db, company.id, { steps: [{ approverIds: [randomUUID()] }] });
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
        if ((await app.request('GET', '/api/v1/company', { key: company.key })).body.approvalWorkflow !== null) break;
      }
      t.not((await app.request('GET', '/api/v1/company', { key: company.key })).body.approvalWorkflow, null, 'the new workflow is seen');

      // Without its listener the process could miss a revocation: it stops caching.
      const listener = app.rt.app!.deps.principals!.listenerSessionPid();
      const late = await app.newTenant();
      t.equal(await status(late.key), 200);
      await sql`select pg_terminate_backend(${listener})`.execute(other.db);
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
        if (app.rt.app!.deps.principals!.get('probe') === undefined && !app.rt.app!.deps.principals!.caching) break;
      }
      await sql`update api_keys set revoked_at = now() where id = ${late.apiKeyId}::uuid`.execute(other.db);
      t.equal(await status(late.key), 401, 'with the listener gone, every request reads its key');
    },
  );

  t.test("the company profile is the calling tenant's", async (t) => {
    const res = await app.request('GET', '/api/v1/company');
    t.equal(res.status, 200);
    t.match(res.body, { id: app.tenant.id, country: 'HR', baseCurrency: 'EUR', exchangeRateProvider: 'HNB', approvalWorkflow: null });
    const cz = await app.newTenant({ country: 'CZ' });
    t.match((await app.request('GET', '/api/v1/company', { key: cz.key })).body, {
      id: cz.id,
      baseCurrency: 'CZK',
      exchangeRateProvider: 'CNB',
    });
    const row = await app.rt.handle.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', app.tenant.apiKeyId)
      .executeTakeFirstOrThrow();
    t.ok(row.last_used_at instanceof Date, 'last-used time recorded');
  });

  t.test('every response carries a request id; a sane inbound one is kept', async (t) => {
    const generated = await app.request('GET', '/healthz', { key: null });
    t.match(generated.headers.get('x-request-id'), /^[0-9a-f-]{36}$/);
    const kept = await app.request('GET', '/healthz', { key: null, headers: { 'x-request-id': 'partner-trace-42' } });
    t.equal(kept.headers.get('x-request-id'), 'partner-trace-42');
    const replaced = await app.request('GET', '/healthz', { key: null, headers: { 'x-request-id': 'bad id with spaces' } });
    t.not(replaced.headers.get('x-request-id'), 'bad id with spaces');
    const err = await app.request('GET', '/api/v1/company', { key: null, headers: { 'x-request-id': 'trace-err-1' } });
    t.equal(err.body.traceId, 'trace-err-1', 'problems quote the request id');
  });

  t.test('an unknown route is a problem, not an HTML page', async (t) => {
    const res = await app.request('GET', '/api/v1/nothing-here');
    t.same([res.status, res.body.code], [404, 'ROUTE_NOT_FOUND']);
    t.match(res.headers.get('content-type'), /^application\/problem\+json/);
  });

  t.test('the OpenAPI 3.1 document is generated from the routes, with a reference page', async (t) => {
    const doc = await app.request('GET', '/api-reference/openapi.json', { key: null });
    t.equal(doc.status, 200);
    t.equal(doc.body.openapi, '3.1.0');
    t.ok(doc.body.paths['/api/v1/company']?.get, 'routes are listed');
    t.ok(doc.body.components.schemas.Problem, 'named schemas become components');
    t.same(
      doc.body.components.schemas.CountryCode,
      { type: 'string', enum: ['HR', 'SI', 'CZ', 'SK'] },
      'enums are allow-lists of canonical strings',
    );
    const page = await app.request('GET', '/api-reference/', { key: null });
    t.equal(page.status, 200);
    t.match(page.headers.get('content-type'), /text\/html/);
  });
});
