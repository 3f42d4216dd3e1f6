// The dispatcher's rules over real HTTPS: every status class, the retry schedule from config
// (compressed), Retry-After ignored, Exhausted after the ninth attempt, the attempt log (time,
// status, latency, failure class, 2 KB body), same bytes and event id with a fresh signature on
// every attempt, the URL policy re-checked at attempt time, and signing during a secret rotation.
import t from 'tap';
import { sql } from 'kysely';
import { startHttpsReceiver, type ReceiverAnswer } from '../../helpers/https-receiver.js';
import { verifyServiceSignature } from '../../../src/webhooks/verify.js';
import { registerEmployee, sleep, startWebhookHarness, waitFor } from '../../helpers/webhook-harness.js';

const DELAYS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];

t.test('delivery rules', async (t) => {
  const h = await startWebhookHarness(t, { WEBHOOK_RETRY_DELAYS_SECONDS: DELAYS.join(','), WEBHOOK_TIMEOUT_MS: '1500' });
  const { app } = h;
  // Per-path scripts: the n-th request to a path gets script(n).
  const scripts = new Map<string, (n: number) => ReceiverAnswer>();
  h.receiver.respondWith((req) => {
    const n = h.received(req.path).length - 1;
    return scripts.get(req.path)?.(n) ?? { status: 200, body: 'ok' };
  });

  /** A subscription in a fresh tenant at `path`, plus one employee.created event; returns ids and the secret. */
  const scenario = async (path: string, script?: (n: number) => ReceiverAnswer, url?: string) => {
    if (script) scripts.set(path, script);
    const tenant = await app.newTenant();
    const sub = await h.subscribe(['employee.created'], { path, key: tenant.key, ...(url ? { url } : {}) });
    return { tenant, sub, emit: () => registerEmployee(app, {}, tenant.key) };
  };
  const deliveryOf = async (tenant: { key: string }, subId: string, final = true) =>
    waitFor(
      async () => {
        const list = await app.request('GET', `/api/v1/webhooks/${subId}/deliveries`, { key: tenant.key });
        const d = list.body.items?.[0];
        if (!d || (final && d.status === 'Pending')) return undefined;
        return (await app.request('GET', `/api/v1/webhooks/${subId}/deliveries/${d.deliveryId}`, { key: tenant.key })).body;
      },
      30_000,
      'a finished delivery',
    );

  t.test('2xx: Succeeded after one attempt, recorded', async (t) => {
    const s = await scenario('/ok', () => ({ status: 204 }));
    await s.emit();
    const d = await deliveryOf(s.tenant, s.sub.id);
    t.match(d, { status: 'Succeeded', attemptCount: 1, lastResponseStatus: 204, nextAttemptAt: null, lastFailureClass: null });
    t.match(d.attempts, [{ attemptNumber: 1, statusCode: 204, failureClass: null, manual: false, errorMessage: 'HTTP 204' }]);
    t.ok(d.attempts[0].latencyMs >= 0 && Date.parse(d.attempts[0].attemptedAt) > 0);
  });

  t.test('4xx other than 408/429, and 3xx: Failed at once, never retried, redirects not followed', async (t) => {
    for (const [path, answer, cls] of [
      ['/gone', { status: 410, body: 'gone' }, 'http_4xx'],
      ['/missing', { status: 404, body: 'nope' }, 'http_4xx'],
      ['/unauthorized', { status: 401 }, 'http_4xx'],
      ['/moved', { redirectTo: `${h.receiver.url}elsewhere` }, 'redirect'],
      ['/moved-permanently', { status: 308, redirectTo: `${h.receiver.url}elsewhere` }, 'redirect'],
    ] as const) {
      const s = await scenario(path, () => answer);
      await s.emit();
      const d = await deliveryOf(s.tenant, s.sub.id);
      t.match(d, { status: 'Failed', attemptCount: 1, lastFailureClass: cls }, path);
    }
    await sleep(DELAYS[0]! * 1000 + 300);
    for (const path of ['/gone', '/missing', '/unauthorized', '/moved', '/moved-permanently'])
      t.equal(h.received(path).length, 1, `${path}: one request only`);
    t.equal(h.received('/elsewhere').length, 0, 'the redirect target was never called');
  });

  t.test('408, 429, 5xx are retried on the schedule (Retry-After ignored) until a 2xx', async (t) => {
    const answers: ReceiverAnswer[] = [
      { status: 408 },
      { status: 429, headers: { 'retry-after': '3600' } },
      { status: 500 },
      { status: 503, headers: { 'retry-after': '7200' } },
      { status: 200 },
    ];
    const s = await scenario('/flaky', (n) => answers[n] ?? { status: 200 });
    await s.emit();
    const d = await deliveryOf(s.tenant, s.sub.id);
    t.match(d, { status: 'Succeeded', attemptCount: 5, lastResponseStatus: 200 });
    t.same(
      d.attempts.map((a: any) => [a.statusCode, a.failureClass]),
      [
        [408, 'http_4xx'],
        [429, 'http_4xx'],
        [500, 'http_5xx'],
        [503, 'http_5xx'],
        [200, null],
      ],
    );
    const reqs = h.received('/flaky');
    t.equal(reqs.length, 5);
    for (const r of reqs) {
      t.same(r.body, reqs[0]!.body, 'the same bytes every time');
      t.equal(r.headers['service-event-id'], reqs[0]!.headers['service-event-id'], 'the same event id');
      t.equal(r.headers['service-delivery-id'], d.deliveryId, 'the same delivery');
      t.ok(verifyServiceSignature(r.body, r.headers['service-signature'], s.sub.signingSecret), 'a valid, current signature');
    }
    t.equal(reqs[0]!.body.toString('utf8'), d.payload, 'the detail shows exactly the bytes sent');
  });

  t.test('the schedule from config, Exhausted after the ninth attempt, last 2 KB of the body kept', async (t) => {
    const big = 'ž'.repeat(1500); // 3000 bytes of two-byte characters
    const s = await scenario('/down', () => ({ status: 503, body: big }));
    await s.emit();
    const d = await deliveryOf(s.tenant, s.sub.id);
    t.match(d, { status: 'Exhausted', attemptCount: 9, nextAttemptAt: null, lastResponseStatus: 503, lastFailureClass: 'http_5xx' });
    t.equal(Buffer.byteLength(d.lastResponseBody), 2048, 'truncated to 2 KB');
    t.equal(d.lastResponseBody, 'ž'.repeat(1024), 'on a character boundary');
    t.ok(d.attempts.every((a: any) => a.responseTruncated && a.statusCode === 503 && a.failureClass === 'http_5xx' && a.latencyMs >= 0));
    const times = d.attempts.map((a: any) => Date.parse(a.attemptedAt));
    for (let i = 1; i < times.length; i++) {
      const gap = times[i] - times[i - 1];
      t.ok(
        gap >= DELAYS[i - 1]! * 1000 - 5 && gap < DELAYS[i - 1]! * 1000 + 2000,
        `gap before attempt ${i + 1}: ${gap} ms for a ${DELAYS[i - 1]} s delay`,
      );
    }
    // Measured from the delivery row's insert, not from before the HTTP request that raised the
    // event: on a loaded machine the request alone can take a second.
    t.ok(
      times[0] - Date.parse(d.createdAt) < 1000,
      `the first attempt is immediate (${times[0] - Date.parse(d.createdAt)} ms after the delivery was recorded)`,
    );
    await sleep(1000);
    t.equal(h.received('/down').length, 9, 'nothing after the ninth attempt');
  });

  t.test('a timeout is retried', async (t) => {
    const s = await scenario('/slow', (n) => (n === 0 ? { status: 200, delayMs: 10_000 } : { status: 200 }));
    await s.emit();
    const d = await deliveryOf(s.tenant, s.sub.id);
    t.match(d, { status: 'Succeeded', attemptCount: 2 });
    t.match(d.attempts[0], { failureClass: 'timeout', statusCode: null, errorMessage: 'No complete response within 1500 ms' });
    t.ok(
      d.attempts[0].latencyMs >= 1500 && d.attempts[0].latencyMs < 5000,
      `attempt bounded by WEBHOOK_TIMEOUT_MS, not by the 10 s answer (${d.attempts[0].latencyMs} ms)`,
    );
  });

  t.test('connection refused and TLS failures are retried, then Exhausted', async (t) => {
    const closed = await startHttpsReceiver();
    const closedUrl = `${closed.url}refused`;
    await closed.close();
    const untrusted = await startHttpsReceiver(); // its own certificate, not trusted by the transport
    t.teardown(() => untrusted.close());
    const refused = await scenario('/refused', undefined, closedUrl);
    const tls = await scenario('/tls', undefined, `${untrusted.url}tls`);
    await refused.emit();
    await tls.emit();
    const [a, b] = await Promise.all([deliveryOf(refused.tenant, refused.sub.id), deliveryOf(tls.tenant, tls.sub.id)]);
    t.match(a, { status: 'Exhausted', attemptCount: 9, lastFailureClass: 'connect', lastResponseStatus: null });
    t.equal(a.attempts[0].errorMessage, 'Connection refused');
    t.match(b, { status: 'Exhausted', attemptCount: 9, lastFailureClass: 'tls' });
    t.match(b.attempts[0].errorMessage, /^TLS handshake failed/);
    t.equal(untrusted.requests.length, 0, 'nothing was sent over an unverified connection');
    for (const attempt of [...a.attempts, ...b.attempts])
      t.notMatch(attempt.errorMessage, /127\.0\.0\.1|\d+\.\d+\.\d+\.\d+/, 'no address in the log');
  });

  t.test('the URL policy is checked again at every attempt: a URL that now points inside is Failed, nothing sent', async (t) => {
    const s = await scenario('/rebound');
    // As if the partner's DNS name now resolved to a private address: store such a URL directly.
    await sql`update webhook_subscriptions set url = 'https://10.20.30.40/hook' where id = ${s.sub.id}::uuid`.execute(app.rt.handle.db);
    await s.emit();
    const d = await deliveryOf(s.tenant, s.sub.id);
    t.match(d, { status: 'Failed', attemptCount: 1, lastFailureClass: 'blocked_address', lastResponseStatus: null });
    t.notMatch(d.attempts[0].errorMessage, /10\.20/, 'the address is not echoed');
    await sql`update webhook_subscriptions set url = 'http://127.0.0.1/hook' where id = ${s.sub.id}::uuid`.execute(app.rt.handle.db);
    await registerEmployee(app, {}, s.tenant.key);
    const second = await waitFor(async () => {
      const list = await app.request('GET', `/api/v1/webhooks/${s.sub.id}/deliveries?status=Failed`, { key: s.tenant.key });
      return list.body.total === 2 ? list.body.items[0] : undefined;
    });
    const detail = (await app.request('GET', `/api/v1/webhooks/${s.sub.id}/deliveries/${second.deliveryId}`, { key: s.tenant.key })).body;
    t.match(
      detail.attempts[0],
      { failureClass: 'blocked_address', errorMessage: 'The URL must use https://.' },
      'plain HTTP is refused at dispatch time too',
    );
  });

  t.test('rotation: both secrets sign for 24 hours; the new secret is shown once', async (t) => {
    const s = await scenario('/rotate');
    const old = s.sub.signingSecret;
    const rotated = await app.request('POST', `/api/v1/webhooks/${s.sub.id}/rotate-secret`, { key: s.tenant.key });
    t.equal(rotated.status, 200, rotated.text);
    const fresh = rotated.body.signingSecret;
    t.match(fresh, /^whsec_[A-Za-z0-9_-]{43}$/);
    t.not(fresh, old);
    const expires = Date.parse(rotated.body.previousSecretExpiresAt);
    t.ok(Math.abs(expires - (Date.now() + 24 * 3600_000)) < 60_000, 'the previous secret signs for 24 hours');
    const read = await app.request('GET', `/api/v1/webhooks/${s.sub.id}`, { key: s.tenant.key });
    t.notOk('signingSecret' in read.body);
    t.equal(read.body.previousSecretExpiresAt, rotated.body.previousSecretExpiresAt);
    await s.emit();
    const [req] = await h.waitForRequests('/rotate', 1);
    const header = String(req!.headers['service-signature']);
    t.match(header, /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/, 'two v1 entries, new first');
    t.ok(verifyServiceSignature(req!.body, header, fresh), 'the new secret verifies');
    t.ok(verifyServiceSignature(req!.body, header, old), 'the old secret still verifies');
    // After the grace period only the new secret signs.
    await sql`update webhook_subscriptions set previous_secret_expires_at = now() - interval '1 second' where id = ${s.sub.id}::uuid`.execute(
      app.rt.handle.db,
    );
    await s.emit();
    const reqs = await h.waitForRequests('/rotate', 2);
    const later = String(reqs[1]!.headers['service-signature']);
    t.match(later, /^t=\d+,v1=[0-9a-f]{64}$/);
    t.ok(verifyServiceSignature(reqs[1]!.body, later, fresh));
    t.notOk(verifyServiceSignature(reqs[1]!.body, later, old));
    t.equal((await app.request('GET', `/api/v1/webhooks/${s.sub.id}`, { key: s.tenant.key })).body.previousSecretExpiresAt, null);
  });

  t.test('metrics count attempts by outcome', async (t) => {
    const text = await app.rt.metrics.registry.getSingleMetricAsString('webhook_delivery_attempts_total');
    for (const outcome of ['succeeded', 'failed', 'exhausted', 'retry_scheduled'])
      t.match(text, new RegExp(`outcome="${outcome}"} [1-9]`), outcome);
  });
});
