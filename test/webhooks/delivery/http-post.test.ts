// postWebhook against a real HTTPS receiver on 127.0.0.1 (self-signed certificate made at test
// time). The receiver's address is loopback, so these tests hand postWebhook addresses the way
// checkWebhookUrl returns them with allowedPrivateCidrs ['127.0.0.0/8'].
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { buildDeliveryHeaders } from '../../../src/webhooks/delivery/headers.js';
import { createWebhookAgent, postWebhook, type PostWebhookRequest } from '../../../src/webhooks/delivery/http-post.js';
import { classifyOutcome } from '../../../src/webhooks/delivery/outcome.js';
import { checkWebhookUrl, type Resolver } from '../../../src/webhooks/subscriptions/url-policy.js';
import { startHttpsReceiver, type HttpsReceiver } from '../../helpers/https-receiver.js';

const LOOPBACK = ['127.0.0.0/8'];
const toReceiver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
const body = Buffer.from(JSON.stringify({ id: 'evt_' + 'ab'.repeat(16), type: 'entry.updated', data: { title: 'Zoë → Köln €' } }), 'utf8');
const headers = buildDeliveryHeaders({
  body,
  secrets: ['whsec_k'],
  eventType: 'entry.updated',
  eventId: 'abababab-abab-abab-abab-abababababab',
  deliveryId: 'd1',
});

let receiver: HttpsReceiver;
// The pool a process's DeliveryTransport would hold; tests that need a fresh one pass their own.
const sharedAgent = createWebhookAgent();
t.teardown(() => sharedAgent.destroy());
t.before(async () => {
  receiver = await startHttpsReceiver();
});
t.teardown(() => receiver.close());
t.beforeEach(() => {
  receiver.requests.length = 0;
  receiver.respondWith(() => ({ status: 200, body: 'ok' }));
});

/** checkWebhookUrl + postWebhook, the way attemptDelivery composes them. */
async function post(url: string, extra: Partial<PostWebhookRequest> = {}) {
  const check = await checkWebhookUrl(url, { allowedPrivateCidrs: LOOPBACK, resolver: toReceiver });
  if (!check.ok) throw new Error(`policy refused ${url}: ${check.code}`);
  return postWebhook({
    url: check.url,
    addresses: check.addresses,
    body,
    headers,
    timeoutMs: 3000,
    ca: receiver.ca,
    agent: sharedAgent,
    ...extra,
  });
}

t.test('2xx: delivered with exactly the bytes and headers sent', async (t) => {
  const bytes = Buffer.concat([body, randomBytes(4096)]); // not even valid UTF-8: bytes are bytes
  const r = await post(receiver.url + 'hooks/travelog?tenant=7', { body: bytes });
  t.match(r, { statusCode: 200, responseBody: 'ok', errorMessage: 'HTTP 200' });
  t.equal(r.failureClass, undefined);
  t.equal(classifyOutcome(r), 'succeeded');
  t.type(r.latencyMs, 'number');
  t.equal(receiver.requests.length, 1);
  const got = receiver.requests[0]!;
  t.equal(got.method, 'POST');
  t.equal(got.path, '/hooks/travelog?tenant=7');
  t.ok(got.body.equals(bytes), 'byte-identical body');
  const names = got.rawHeaders
    .filter((_, i) => i % 2 === 0)
    .map((n) => n.toLowerCase())
    .sort();
  t.same(
    names,
    [
      'connection',
      'content-length',
      'content-type',
      'host',
      'service-delivery-id',
      'service-event',
      'service-event-id',
      'service-signature',
      'user-agent',
    ],
    'no other headers (no Accept-Encoding, no proxy headers)',
  );
  t.equal(got.headers['content-length'], String(bytes.length));
  t.equal(got.headers['content-type'], 'application/json; charset=utf-8');
  t.equal(got.headers['user-agent'], 'Service-Webhook/1.0');
  t.equal(got.headers['service-signature'], headers['Service-Signature']);
});

t.test('status classes', async (t) => {
  const cases: [number, string | undefined, string][] = [
    [201, undefined, 'succeeded'],
    [204, undefined, 'succeeded'],
    [400, 'http_4xx', 'failed'],
    [404, 'http_4xx', 'failed'],
    [410, 'http_4xx', 'failed'],
    [408, 'http_4xx', 'retry'],
    [429, 'http_4xx', 'retry'],
    [500, 'http_5xx', 'retry'],
    [502, 'http_5xx', 'retry'],
    [503, 'http_5xx', 'retry'],
  ];
  for (const [status, failureClass, outcome] of cases) {
    receiver.respondWith(() => ({ status, headers: { 'retry-after': '3600' }, body: status === 204 ? '' : `status ${status}` }));
    const r = await post(receiver.url);
    t.equal(r.statusCode, status);
    t.equal(r.failureClass, failureClass, `${status} class`);
    t.equal(classifyOutcome(r), outcome, `${status} outcome`);
    t.equal(r.responseBody, status === 204 ? '' : `status ${status}`);
  }
});

t.test('3xx is recorded, never followed', async (t) => {
  for (const status of [301, 302, 303, 307, 308]) {
    receiver.requests.length = 0;
    receiver.respondWith(() => ({ status, redirectTo: 'https://169.254.169.254/latest/meta-data/' }));
    const r = await post(receiver.url);
    t.match(r, { statusCode: status, failureClass: 'redirect' });
    t.equal(classifyOutcome(r), 'failed');
    t.notMatch(r.errorMessage, /169\.254/, 'the Location is not echoed');
    t.equal(receiver.requests.length, 1, `${status}: one request only`);
  }
});

t.test('timeout while waiting for the response', async (t) => {
  receiver.respondWith(() => ({ delayMs: 10_000 })); // far past the deadline, so the bound below can be roomy
  const r = await post(receiver.url, { timeoutMs: 300 });
  t.match(r, { failureClass: 'timeout', errorMessage: 'No complete response within 300 ms' });
  t.equal(r.statusCode, undefined);
  t.ok(r.latencyMs >= 250 && r.latencyMs < 5000, `latency ${r.latencyMs} ms is about the deadline`);
  t.equal(classifyOutcome(r), 'retry');
});

t.test('the deadline covers the response body too', async (t) => {
  receiver.respondWith(() => ({ status: 200, body: 'slow body', bodyDelayMs: 10_000 }));
  const r = await post(receiver.url, { timeoutMs: 400 });
  t.match(r, { statusCode: 200, failureClass: 'timeout' });
  t.ok(r.latencyMs < 5000, `latency ${r.latencyMs} ms: cut at the deadline, not at the end of the 10 s body`);
});

t.test('connection refused (closed port)', async (t) => {
  const gone = await startHttpsReceiver();
  const url = gone.url;
  await gone.close();
  const r = await post(url);
  t.match(r, { failureClass: 'connect', errorMessage: 'Connection refused' });
  t.notMatch(r.errorMessage, /127\.0\.0\.1|\d+\.\d+\.\d+\.\d+/, 'no address in the message');
  t.equal(classifyOutcome(r), 'retry');
});

t.test('connection dropped before a response', async (t) => {
  receiver.respondWith(() => ({ destroy: true }));
  const r = await post(receiver.url, { agent: createWebhookAgent() });
  t.match(r, { failureClass: 'connect' });
  t.notMatch(r.errorMessage, /\d+\.\d+\.\d+\.\d+/);
});

t.test('TLS: an untrusted certificate fails as tls, and nothing is sent', async (t) => {
  const r = await post(receiver.url, { ca: undefined as never });
  // `ca: undefined` falls back to the system store, which does not know the self-signed certificate.
  t.match(r, { failureClass: 'tls', errorMessage: /^TLS handshake failed \([A-Z_]+\)$/ });
  t.equal(receiver.requests.length, 0);
  t.equal(classifyOutcome(r), 'retry');
});

t.test('TLS: NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn verification off', async (t) => {
  const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  t.teardown(() => {
    if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
  });
  const r = await post(receiver.url, { ca: undefined as never, agent: createWebhookAgent() });
  t.match(r, { failureClass: 'tls' });
  t.equal(receiver.requests.length, 0);
});

t.test('TLS is verified against the URL host name, sent as SNI', async (t) => {
  const ok = await post(receiver.urlFor('receiver.test', '/hook'));
  t.match(ok, { statusCode: 200 });
  t.equal(receiver.requests[0]?.servername, 'receiver.test', 'SNI carries the name');
  t.equal(receiver.requests[0]?.headers.host, `receiver.test:${receiver.port}`);
  const wrong = await post(receiver.urlFor('other.test', '/hook'));
  t.match(wrong, { failureClass: 'tls', errorMessage: 'TLS handshake failed (ERR_TLS_CERT_ALTNAME_INVALID)' });
  t.equal(receiver.requests.length, 1, 'nothing sent to a host whose certificate does not match');
});

t.test('response body over 2 KB with multibyte characters is cut on a character boundary', async (t) => {
  receiver.respondWith(() => ({ status: 500, body: 'x' + '€'.repeat(5000) }));
  const r = await post(receiver.url);
  t.equal(r.responseTruncated, true);
  t.equal(r.responseBody, 'x' + '€'.repeat(682), '1 + 682*3 = 2047 bytes; one more euro would be 2050');
  t.ok(Buffer.byteLength(r.responseBody!, 'utf8') <= 2048);
  t.notOk(r.responseBody!.includes('\uFFFD'));
  receiver.respondWith(() => ({ status: 200, body: Buffer.from('a\u0000b') }));
  t.equal((await post(receiver.url)).responseBody, 'a\uFFFDb', 'NUL replaced (PostgreSQL text cannot hold it)');
  receiver.respondWith(() => ({ status: 200, body: '€'.repeat(682) + 'ab' }));
  const exact = await post(receiver.url);
  t.equal(Buffer.byteLength(exact.responseBody!, 'utf8'), 2048);
  t.notOk(exact.responseTruncated, 'exactly 2048 bytes is not truncated');
});

t.test('keep-alive: sockets are reused per origin', async (t) => {
  const agent = createWebhookAgent();
  t.teardown(() => agent.destroy());
  for (let i = 0; i < 3; i++) t.match(await post(receiver.url, { agent }), { statusCode: 200 });
  const conns = new Set(receiver.requests.map((r) => r.connection));
  t.equal(conns.size, 1, 'three deliveries over one TLS connection');
});

t.test('a keep-alive socket dropped by the server is replaced transparently', async (t) => {
  const agent = createWebhookAgent();
  t.teardown(() => agent.destroy());
  receiver.respondWith((_req, i) => (i === 1 ? { destroy: true } : { status: 200 }));
  t.match(await post(receiver.url, { agent }), { statusCode: 200 });
  const second = await post(receiver.url, { agent });
  t.match(second, { statusCode: 200 }, 'sent again on a fresh connection');
  t.equal(receiver.requests.length, 3);
  t.equal(receiver.requests[0]!.connection, receiver.requests[1]!.connection, 'the second request reused the socket');
  t.not(receiver.requests[2]!.connection, receiver.requests[1]!.connection, 'the resend used a new one');
});

t.test('proxy environment variables are ignored', async (t) => {
  const keys = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'NODE_USE_ENV_PROXY'];
  const saved = keys.map((k) => [k, process.env[k]] as const);
  for (const k of keys) process.env[k] = k === 'NODE_USE_ENV_PROXY' ? '1' : 'http://127.0.0.1:9';
  t.teardown(() => {
    for (const [k, v] of saved)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });
  const r = await post(receiver.url, { agent: createWebhookAgent() });
  t.match(r, { statusCode: 200 }, 'delivered directly, not through the (dead) proxy');
  t.equal(receiver.requests.length, 1);
});

t.test('refuses input that did not come from the policy check', async (t) => {
  t.match(
    await postWebhook({ url: new URL(receiver.url), addresses: [], body, headers, timeoutMs: 1000, ca: receiver.ca, agent: sharedAgent }),
    {
      failureClass: 'blocked_address',
    },
  );
  t.match(
    await postWebhook({
      url: new URL('http://127.0.0.1/'),
      addresses: [{ address: '127.0.0.1', family: 4 }],
      body,
      headers,
      timeoutMs: 1000,
      agent: sharedAgent,
    }),
    { failureClass: 'blocked_address' },
  );
  t.equal(receiver.requests.length, 0);
});
