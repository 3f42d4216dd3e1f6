// The delivery log and the operations on it over real HTTP: list (newest first, pages, filters),
// detail (exact payload, truncated response, attempts), 404 across subscriptions and tenants,
// manual retry (only from Failed/Exhausted, one attempt, same bytes and event id, fresh
// signature), recover of a window (cap), delete cancelling pending deliveries, and retention.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { operations } from '../../../../src/admin/operations.js';
import { recoverDeliveries } from '../../../../src/webhooks/delivery/requeue.js';
import { cleanupDeliveries } from '../../../../src/webhooks/delivery/retention.js';
import { verifyServiceSignature } from '../../../../src/webhooks/verify.js';
import type { ReceiverAnswer } from '../../../helpers/https-receiver.js';
import { runCli } from '../../../helpers/processes.js';
import { registerEmployee, sleep, startWebhookHarness, waitFor } from '../../../helpers/webhook-harness.js';

// Long delays: a retryable failure leaves its delivery Pending for the whole test.
const SLOW = '30,30,30,30,30,30,30,30';

t.test('deliveries API', async (t) => {
  const h = await startWebhookHarness(t, { WEBHOOK_RETRY_DELAYS_SECONDS: SLOW });
  const { app } = h;
  const db = app.rt.handle.db;
  const answers = new Map<string, ReceiverAnswer>();
  h.receiver.respondWith(
    (req) => answers.get(`${req.path} ${String(req.headers['service-event'])}`) ?? answers.get(req.path) ?? { status: 200, body: 'ok' },
  );

  const tenant = await app.newTenant();
  const as = { key: tenant.key };
  const list = (subId: string, query = '') => app.request('GET', `/api/v1/webhooks/${subId}/deliveries${query}`, as);
  const detail = (subId: string, id: string) => app.request('GET', `/api/v1/webhooks/${subId}/deliveries/${id}`, as);
  const retry = (subId: string, id: string, key = tenant.key) =>
    app.request('POST', `/api/v1/webhooks/${subId}/deliveries/${id}/retry`, { key });
  const settled = (subId: string, n: number, query = '') =>
    waitFor(
      async () => {
        const r = await list(subId, `?pageSize=200${query}`);
        return r.body.total === n && r.body.items.every((d: any) => d.status !== 'Pending' || d.attemptCount > 0)
          ? r.body.items
          : undefined;
      },
      30_000,
      `${n} settled deliveries`,
    );

  answers.set('/log employee.updated', { status: 404, body: 'no such thing' });
  const log = await h.subscribe(['employee.created', 'employee.updated'], { path: '/log', key: tenant.key });
  const second = await h.subscribe(['employee.created'], { path: '/second', key: tenant.key });
  const employees: string[] = [];
  for (const name of ['A', 'B', 'C']) employees.push(await registerEmployee(app, { firstName: name }, tenant.key));
  await app.request('PUT', `/api/v1/employees/${employees[0]}`, { body: { firstName: 'A', lastName: 'Changed' }, ...as });
  const items = await settled(log.id, 4);
  await settled(second.id, 3);

  t.test('list: newest first, fields, pages, filters', async (t) => {
    t.same(
      items.map((d: any) => d.eventType),
      ['employee.updated', 'employee.created', 'employee.created', 'employee.created'],
      'newest first',
    );
    const created = items.map((d: any) => Date.parse(d.createdAt));
    t.same(
      created,
      [...created].sort((a, b) => b - a),
    );
    t.match(items[1], {
      deliveryId: /^[0-9a-f-]{36}$/,
      eventId: /^evt_[0-9a-f]{32}$/,
      eventType: 'employee.created',
      status: 'Succeeded',
      attemptCount: 1,
      createdAt: String,
      lastAttemptAt: String,
      nextAttemptAt: null,
      lastResponseStatus: 200,
    });
    t.same(Object.keys(items[1]).sort(), [
      'attemptCount',
      'createdAt',
      'deliveryId',
      'eventId',
      'eventType',
      'lastAttemptAt',
      'lastResponseStatus',
      'nextAttemptAt',
      'status',
    ]);
    const p1 = await list(log.id, '?page=1&pageSize=3');
    const p2 = await list(log.id, '?page=2&pageSize=3');
    t.same([p1.body.total, p1.body.items.length, p2.body.items.length, p1.body.page, p2.body.pageSize], [4, 3, 1, 1, 3]);
    t.same(
      [...p1.body.items, ...p2.body.items].map((d: any) => d.deliveryId),
      items.map((d: any) => d.deliveryId),
    );
    const failed = await list(log.id, '?status=Failed');
    t.same(
      failed.body.items.map((d: any) => [d.eventType, d.lastResponseStatus]),
      [['employee.updated', 404]],
    );
    t.equal((await list(log.id, '?eventType=employee.created')).body.total, 3);
    t.equal((await list(log.id, '?eventType=employee.created&status=Failed')).body.total, 0);
    t.equal((await list(log.id, '?status=Delivered')).status, 400);
    t.equal((await list(log.id, '?eventType=entry.nope')).status, 400);
    t.equal((await list(log.id, '?pageSize=201')).status, 400);
  });

  t.test('detail: the exact signed payload, the response body and the attempts', async (t) => {
    const failed = items[0];
    const d = (await detail(log.id, failed.deliveryId)).body;
    const sent = h.received('/log').find((r) => r.headers['service-delivery-id'] === failed.deliveryId)!;
    t.equal(d.payload, sent.body.toString('utf8'), 'the bytes that were sent and signed');
    t.equal(JSON.parse(d.payload).id, d.eventId);
    t.match(d, { status: 'Failed', lastResponseBody: 'no such thing', lastFailureClass: 'http_4xx' });
    t.match(d.attempts, [
      {
        attemptNumber: 1,
        statusCode: 404,
        failureClass: 'http_4xx',
        responseBody: 'no such thing',
        responseTruncated: false,
        manual: false,
      },
    ]);
  });

  t.test('404: a delivery of another subscription, an unknown id, another tenant', async (t) => {
    const ofSecond = (await list(second.id)).body.items[0];
    t.equal((await detail(log.id, ofSecond.deliveryId)).status, 404, 'exists, but under another subscription');
    t.equal((await detail(second.id, ofSecond.deliveryId)).status, 200);
    t.equal((await retry(log.id, ofSecond.deliveryId)).status, 404);
    t.equal((await detail(log.id, '00000000-0000-4000-8000-000000000000')).status, 404);
    t.equal((await detail(log.id, 'not-a-uuid')).status, 400);
    const stranger = await app.newTenant();
    const s = { key: stranger.key };
    for (const [method, p] of [
      ['GET', `/api/v1/webhooks/${log.id}`],
      ['GET', `/api/v1/webhooks/${log.id}/deliveries`],
      ['GET', `/api/v1/webhooks/${log.id}/deliveries/${items[0].deliveryId}`],
      ['POST', `/api/v1/webhooks/${log.id}/deliveries/${items[0].deliveryId}/retry`],
      ['POST', `/api/v1/webhooks/${log.id}/rotate-secret`],
      ['DELETE', `/api/v1/webhooks/${log.id}`],
    ] as const) {
      const r = await app.request(method, p, s);
      t.same([r.status, r.body.code], [404, 'NOT_FOUND'], `${method} ${p.replace(log.id, ':id')}`);
    }
    const rec = await app.request('POST', `/api/v1/webhooks/${log.id}/recover`, { ...s, body: { since: '2020-01-01T00:00:00Z' } });
    t.equal(rec.status, 404);
    t.same((await app.request('GET', '/api/v1/webhooks', s)).body.items, [], "the stranger sees none of this tenant's subscriptions");
    t.equal((await app.request('GET', `/api/v1/webhooks/${log.id}`, as)).status, 200, 'the subscription itself is untouched');
  });

  t.test('manual retry: only Failed or Exhausted; one attempt, same bytes and event id, fresh signature', async (t) => {
    const succeeded = items[1];
    const r409 = await retry(log.id, succeeded.deliveryId);
    t.same([r409.status, r409.body.code, r409.body.currentStatus], [409, 'DELIVERY_NOT_RETRYABLE', 'Succeeded']);

    const failed = items[0];
    const first = h.received('/log').find((r) => r.headers['service-delivery-id'] === failed.deliveryId)!;
    await sleep(1100); // so that the signature timestamp must differ
    answers.set('/log employee.updated', { status: 503, body: 'busy' });
    const exhausted = await retry(log.id, failed.deliveryId);
    t.equal(exhausted.status, 200, exhausted.text);
    t.match(
      exhausted.body,
      { status: 'Exhausted', attemptCount: 2, lastResponseStatus: 503, nextAttemptAt: null },
      'a retryable failure of a manual attempt ends it: no schedule',
    );
    t.match(exhausted.body.attempts[1], { attemptNumber: 2, manual: true, statusCode: 503, failureClass: 'http_5xx' });

    answers.set('/log employee.updated', { status: 202 });
    const ok = await retry(log.id, failed.deliveryId);
    t.match(ok.body, { status: 'Succeeded', attemptCount: 3, lastResponseStatus: 202 });
    const sends = h.received('/log').filter((r) => r.headers['service-delivery-id'] === failed.deliveryId);
    t.equal(sends.length, 3, 'one attempt per retry');
    for (const r of sends) {
      t.same(r.body, first.body, 'the same bytes');
      t.equal(r.headers['service-event-id'], first.headers['service-event-id'], 'the same event id');
      t.ok(verifyServiceSignature(r.body, r.headers['service-signature'], log.signingSecret));
    }
    const ts = sends.map((r) => /t=(\d+)/.exec(String(r.headers['service-signature']))![1]);
    t.not(ts[1], ts[0], 'a fresh timestamp');
    t.equal((await retry(log.id, failed.deliveryId)).status, 409, 'Succeeded now: no more retries');
  });

  t.test('a Pending delivery (waiting for its next attempt) is not retryable', async (t) => {
    answers.set('/pending', { status: 500 });
    const sub = await h.subscribe(['employee.created'], { path: '/pending', key: tenant.key });
    await registerEmployee(app, {}, tenant.key);
    const [d] = await waitFor(async () => {
      const r = await list(sub.id);
      return r.body.items[0]?.attemptCount === 1 ? r.body.items : undefined;
    });
    t.match(d, { status: 'Pending', attemptCount: 1, lastResponseStatus: 500 });
    const next = Date.parse(d.nextAttemptAt) - Date.now();
    t.ok(next > 25_000 && next <= 30_000, `next attempt on the configured schedule (${next} ms)`);
    t.same([(await retry(sub.id, d.deliveryId)).status, (await retry(sub.id, d.deliveryId)).body.currentStatus], [409, 'Pending']);

    t.test('delete: 204, pending deliveries cancelled, everything 404 afterwards', async (t) => {
      t.equal((await app.request('DELETE', `/api/v1/webhooks/${sub.id}`, as)).status, 204);
      const row = await sql<{
        status: string;
        next_attempt_at: Date | null;
      }>`select status, next_attempt_at from webhook_deliveries where id = ${d.deliveryId}::uuid`.execute(db);
      t.same(row.rows[0], { status: 'Cancelled', next_attempt_at: null });
      t.equal((await app.request('GET', `/api/v1/webhooks/${sub.id}`, as)).status, 404);
      t.equal((await list(sub.id)).status, 404);
      t.equal((await app.request('DELETE', `/api/v1/webhooks/${sub.id}`, as)).status, 404);
      t.notOk((await app.request('GET', '/api/v1/webhooks?pageSize=200', as)).body.items.some((s: any) => s.id === sub.id));
    });

    t.test('a delete that races a dispatch: the claimed row is cancelled, nothing is sent', async (t) => {
      answers.set('/race', { status: 200 });
      const raced = await h.subscribe(['employee.created'], { path: '/race', key: tenant.key });
      // As if the delete committed between the projector's insert and the dispatcher's claim.
      await sql`update webhook_subscriptions set deleted_at = now(), is_active = false where id = ${raced.id}::uuid`.execute(db);
      const [event] = await app.rt.store.readStream(`employee-${employees[0]}`);
      await sql`insert into webhook_deliveries (id, subscription_id, tenant_id, event_id, source_event_id, event_type, payload, status, next_attempt_at)
        values (gen_random_uuid(), ${raced.id}::uuid, ${tenant.id}::uuid, gen_random_uuid(), ${event!.id}::uuid, 'employee.created', convert_to('{}', 'UTF8'), 'Pending', now())`.execute(
        db,
      );
      await waitFor(async () => {
        const r = await sql<{ status: string }>`select status from webhook_deliveries where subscription_id = ${raced.id}::uuid`.execute(
          db,
        );
        return r.rows[0]?.status === 'Cancelled' ? true : undefined;
      });
      t.equal(h.received('/race').length, 0);
    });
  });

  t.test('recover: every Failed or Exhausted delivery in the window, one more attempt each', async (t) => {
    answers.set('/recover', { status: 400 });
    const sub = await h.subscribe(['employee.created'], { path: '/recover', key: tenant.key });
    for (let i = 0; i < 4; i++) await registerEmployee(app, { firstName: `R${i}` }, tenant.key);
    const failed = await settled(sub.id, 4, '&status=Failed');
    // One of them is older than the window.
    const old = failed[3].deliveryId;
    await sql`update webhook_deliveries set created_at = now() - interval '2 hours' where id = ${old}::uuid`.execute(db);

    const bad = await app.request('POST', `/api/v1/webhooks/${sub.id}/recover`, {
      ...as,
      body: { since: new Date().toISOString(), until: '2020-01-01T00:00:00Z' },
    });
    t.same([bad.status, Object.keys(bad.body.errors)], [400, ['until']]);
    // Without until (it defaults to now), a since in the future is since's fault (an outside probe, session 16).
    const future = await app.request('POST', `/api/v1/webhooks/${sub.id}/recover`, { ...as, body: { since: '9999-12-31T23:59:59Z' } });
    t.same([future.status, Object.keys(future.body.errors)], [400, ['since']], future.text);
    t.equal((await app.request('POST', `/api/v1/webhooks/${sub.id}/recover`, { ...as, body: {} })).status, 400);

    answers.set('/recover', { status: 200 });
    const res = await app.request('POST', `/api/v1/webhooks/${sub.id}/recover`, {
      ...as,
      body: { since: new Date(Date.now() - 3600_000).toISOString() },
    });
    t.same([res.status, res.body], [202, { requeued: 3, more: false, resumeFrom: null }]);
    const after = await settled(sub.id, 3, '&status=Succeeded');
    t.ok(after.every((d: any) => d.attemptCount === 2));
    t.equal((await detail(sub.id, old)).body.status, 'Failed', 'outside the window: untouched');

    // A recovered delivery that fails retryably is Exhausted after its one attempt; it does not restart the schedule.
    answers.set('/recover', { status: 502 });
    const again = await app.request('POST', `/api/v1/webhooks/${sub.id}/recover`, { ...as, body: { since: '2020-01-01T00:00:00Z' } });
    t.equal(again.body.requeued, 1);
    const ex = await waitFor(async () => {
      const d = (await detail(sub.id, old)).body;
      return d.status === 'Exhausted' ? d : undefined;
    });
    t.match(ex, { attemptCount: 2, nextAttemptAt: null, lastResponseStatus: 502 });
    t.equal(ex.attempts[1].manual, false);

    // The cap: the answer says where to continue.
    await sql`update webhook_deliveries set status = 'Failed' where subscription_id = ${sub.id}::uuid`.execute(db);
    answers.set('/recover', { status: 200 });
    const capped = await recoverDeliveries(db, { tenantId: tenant.id, subscriptionId: sub.id }, new Date(0), new Date(), new Date(), 2);
    t.match(capped, { requeued: 2, more: true, resumeFrom: String });
    const rest = await recoverDeliveries(
      db,
      { tenantId: tenant.id, subscriptionId: sub.id },
      new Date(capped.resumeFrom!),
      new Date(),
      new Date(),
      2,
    );
    t.match(rest, { requeued: 2, more: false });
  });

  t.test('retention: deliveries older than 30 days go, with their attempts, in batches', async (t) => {
    const sub = await h.subscribe(['employee.created'], { path: '/retention', key: tenant.key });
    for (let i = 0; i < 5; i++) await registerEmployee(app, { firstName: `Old${i}` }, tenant.key);
    const rows = await settled(sub.id, 5);
    await sql`update webhook_deliveries set created_at = now() - interval '31 days' where id = any(${rows.slice(0, 4).map((d: any) => d.deliveryId)}::uuid[])`.execute(
      db,
    );
    const result = await cleanupDeliveries(db, { batchSize: 3 });
    t.equal(result.deliveriesDeleted, 4, 'two batches');
    t.equal((await list(sub.id)).body.total, 1, 'the recent one stays');
    const orphans = await sql<{
      n: number;
    }>`select count(*)::int as n from webhook_delivery_attempts a where not exists (select 1 from webhook_deliveries d where d.id = a.delivery_id)`.execute(
      db,
    );
    t.equal(orphans.rows[0]!.n, 0, 'attempts went with their deliveries');

    // A deleted subscription disappears once its last delivery has aged out.
    t.equal((await app.request('DELETE', `/api/v1/webhooks/${sub.id}`, as)).status, 204);
    await sql`update webhook_deliveries set created_at = now() - interval '31 days' where subscription_id = ${sub.id}::uuid`.execute(db);
    await sql`update webhook_subscriptions set deleted_at = now() - interval '31 days' where id = ${sub.id}::uuid`.execute(db);
    const op = await operations['webhooks cleanup']!({ db, store: app.rt.store, runner: app.rt.runner }, {}, () => undefined);
    t.match(op, { deliveriesDeleted: 1, subscriptionsDeleted: 1 });
    const left = await sql<{ n: number }>`select count(*)::int as n from webhook_subscriptions where id = ${sub.id}::uuid`.execute(db);
    t.equal(left.rows[0]!.n, 0);
  });

  t.test('`npm run cli -- webhooks cleanup` runs the job', async (t) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'travelog-webhooks-cli-'));
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
    const r = await runCli(['webhooks', 'cleanup'], { DATA_DIR: dataDir });
    t.equal(r.code, 0, r.stderr);
    t.match(r.json, { deliveriesDeleted: 0, subscriptionsDeleted: 0, olderThan: String });
  });
});
