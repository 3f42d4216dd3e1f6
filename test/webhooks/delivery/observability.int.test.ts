// Webhook observability: every attempt is logged (info) with tenant, subscription, delivery,
// attempt number, status class and duration, and never the body, the URL's query or a secret;
// the attempt counter by class and the backlog gauges (computed at scrape time) move with real
// deliveries to the real HTTPS receiver.
import t from 'tap';
import { Writable } from 'node:stream';
import pino from 'pino';
import { sql } from 'kysely';
import { startDispatcher } from '../../../src/webhooks/delivery/dispatcher.js';
import { startWebhookHarness, waitFor } from '../../helpers/webhook-harness.js';

const metricValue = (text: string, name: string, labels = ''): number | undefined => {
  const m = new RegExp(`^${name}${labels.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
};

t.test('webhook attempts are logged and counted; the backlog gauges move', async (t) => {
  const h = await startWebhookHarness(t);
  const { app, receiver } = h;
  const rt = app.rt;
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      raw.push(String(chunk));
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  // The worker's own dispatcher gives way to one whose log lines this test reads.
  await rt.background!.webhooks!.dispatcher.stop();
  const dispatcher = startDispatcher(
    {
      db: rt.handle.db,
      config: app.config,
      secrets: rt.secrets,
      metrics: rt.metrics,
      logger: pino({ level: 'info' }, sink),
      ...rt.delivery,
    },
    { pollMs: 100 },
  );
  t.teardown(() => dispatcher.stop());

  receiver.respondWith((r) => (r.path.startsWith('/gone') ? { status: 410 } : { status: 200 }));
  const ok = await h.subscribe(['employee.created'], { path: '/ok?token=sekrit-query-token' });
  const gone = await h.subscribe(['employee.created'], { path: '/gone' });

  const created = await app.request('POST', '/api/v1/employees', {
    body: { firstName: 'Lea', lastName: 'Perić', taxId: '12345678903', bankAccountNumber: 'HR12 1001 0051 8630 0016 0' },
  });
  t.equal(created.status, 201, created.text);
  await h.waitForRequests('/ok?token=sekrit-query-token', 1);
  await h.waitForRequests('/gone', 1);
  const attempts = await waitFor(
    () => {
      const l = lines.filter((x) => x.msg === 'webhook delivery attempt');
      return l.length >= 2 ? l : undefined;
    },
    30_000,
    'two attempt log lines',
  );

  const okLine = attempts.find((l) => l.subscriptionId === ok.id);
  const goneLine = attempts.find((l) => l.subscriptionId === gone.id);
  t.match(okLine, {
    level: 30,
    tenantId: app.tenant.id,
    subscriptionId: ok.id,
    deliveryId: /^[0-9a-f-]{36}$/,
    attemptNumber: 1,
    statusClass: '2xx',
    statusCode: 200,
    durationMs: Number,
    recorded: true,
  });
  t.match(goneLine, { tenantId: app.tenant.id, attemptNumber: 1, statusClass: '4xx', statusCode: 410, deliveryStatus: 'Failed' });
  const all = raw.join('');
  t.notMatch(all, 'sekrit-query-token', 'no URL query in the log');
  t.notMatch(all, 'https://', 'no URL in the log');
  t.notMatch(all, 'whsec_', 'no secret in the log');
  t.notMatch(all, ok.signingSecret.slice(6), 'no secret in the log');
  t.notMatch(all, 'Perić', 'no payload in the log');
  t.notMatch(all, '"data"', 'no envelope in the log');

  let text = await rt.metrics.registry.metrics();
  t.equal(metricValue(text, 'webhook_attempts_total', '{class="2xx"}'), 1);
  t.equal(metricValue(text, 'webhook_attempts_total', '{class="4xx"}'), 1);
  t.equal(metricValue(text, 'webhook_deliveries_pending'), 0);
  t.equal(metricValue(text, 'webhook_oldest_due_delivery_age_seconds'), 0);
  t.equal(metricValue(text, 'webhook_subscriptions_disabled'), 0);
  await waitFor(
    async () => metricValue(await rt.metrics.registry.metrics(), 'webhook_catalog_lag_events') === 0 || undefined,
    30_000,
    'catalog lag 0',
  );

  // Nothing dispatches now: a new event leaves due deliveries behind, and they age.
  await dispatcher.stop();
  await rt.background!.webhooks!.projector.stop();
  t.equal((await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ivo', lastName: 'Kos' } })).status, 201);
  text = await rt.metrics.registry.metrics();
  t.ok(metricValue(text, 'webhook_catalog_lag_events')! >= 1, 'the stopped catalog projector lags');
  // Deliveries as the projector would have made them, due a minute ago.
  await sql`insert into webhook_deliveries (id, tenant_id, subscription_id, event_id, source_event_id, event_type, payload, status, next_attempt_at)
    select gen_random_uuid(), tenant_id, subscription_id, gen_random_uuid(), gen_random_uuid(), event_type, payload, 'Pending', now() - interval '60 seconds'
    from webhook_deliveries where subscription_id = ${ok.id}::uuid limit 1`.execute(rt.handle.db);
  text = await rt.metrics.registry.metrics();
  t.equal(metricValue(text, 'webhook_deliveries_pending'), 1);
  t.ok(metricValue(text, 'webhook_oldest_due_delivery_age_seconds')! >= 59, 'the oldest due delivery has waited a minute');

  await sql`update webhook_subscriptions set is_active = false where id = ${gone.id}::uuid`.execute(rt.handle.db);
  t.equal(metricValue(await rt.metrics.registry.metrics(), 'webhook_subscriptions_disabled'), 1);
});
