// attemptDelivery: the per-attempt policy re-check and the pinning of the checked address.
// DNS rebinding: a resolver that answers an allowed address first and a forbidden one afterwards
// must be asked once per attempt, and the request must reach the first answer. Two receivers on
// the same port, 127.0.0.1 (allowed by the test allow-list 127.0.0.1/32) and 127.0.0.2 (not
// allowed), tell which address a connection really went to.
import t from 'tap';
import { attemptDelivery, type AttemptDeliveryRequest } from '../../../src/webhooks/delivery/attempt.js';
import { buildDeliveryHeaders } from '../../../src/webhooks/delivery/headers.js';
import { createWebhookAgent } from '../../../src/webhooks/delivery/http-post.js';
import { classifyOutcome } from '../../../src/webhooks/delivery/outcome.js';
import type { Resolver } from '../../../src/webhooks/subscriptions/url-policy.js';
import { makeSelfSignedCertificate, startHttpsReceiver, type HttpsReceiver } from '../../helpers/https-receiver.js';

const body = Buffer.from('{"id":"evt_00000000000000000000000000000001","type":"employee.created","data":{}}');
const headers = buildDeliveryHeaders({
  body,
  secrets: ['whsec_k'],
  eventType: 'employee.created',
  eventId: '00000000-0000-0000-0000-000000000001',
  deliveryId: 'd1',
});

/** Answers `answers[i]` on the i-th call (the last one from then on) and counts calls. */
function scripted(...answers: string[][]): Resolver & { calls: number } {
  const r = Object.assign(
    async () => {
      const a = answers[Math.min(r.calls, answers.length - 1)]!;
      r.calls++;
      return a.map((address) => ({ address, family: 4 }));
    },
    { calls: 0 },
  );
  return r;
}

const certificate = await makeSelfSignedCertificate(['receiver.test']);
const good: HttpsReceiver = await startHttpsReceiver({ certificate });
// Linux routes all of 127/8 to loopback; elsewhere the second listener may be impossible, and the
// rebinding test then still proves the point (a second lookup would have hit a dead address).
const evil: HttpsReceiver | undefined = await startHttpsReceiver({ certificate, host: '127.0.0.2', port: good.port }).catch(
  () => undefined,
);
t.teardown(async () => {
  await good.close();
  await evil?.close();
});

const request = (over: Partial<AttemptDeliveryRequest>): AttemptDeliveryRequest => ({
  url: good.urlFor('receiver.test', '/hook'),
  body,
  headers,
  timeoutMs: 3000,
  allowedPrivateCidrs: ['127.0.0.1/32'],
  ca: good.ca,
  agent: createWebhookAgent(),
  ...over,
});

t.test('DNS rebinding: one lookup per attempt, and the connection goes to the checked address', async (t) => {
  const resolver = scripted(['127.0.0.1'], ['127.0.0.2']);
  const first = await attemptDelivery(request({ resolver }));
  t.match(first, { statusCode: 200 });
  t.equal(resolver.calls, 1, 'resolved once; a second lookup would have answered 127.0.0.2');
  t.equal(good.requests.length, 1, 'delivered to the checked address');
  t.equal(evil?.requests.length ?? 0, 0, 'never reached the rebound address');
  t.equal(good.requests[0]!.localAddress, '127.0.0.1');

  // The next attempt re-checks: the name now points at a forbidden address, so nothing is sent. It
  // reads as a name that does not resolve (as registration refuses it: url-policy.ts), retried later.
  const second = await attemptDelivery(request({ resolver }));
  t.match(second, { failureClass: 'dns' });
  t.equal(classifyOutcome(second), 'retry');
  t.notMatch(second.errorMessage, /127\.0\.0\.2/);
  t.equal(resolver.calls, 2);
  t.equal(evil?.requests.length ?? 0, 0);
});

t.test(
  'an allowed rebinding target is reached only through its own check',
  { skip: evil ? false : 'cannot listen on 127.0.0.2' },
  async (t) => {
    // With both allowed, attempt 1 goes to .1 and attempt 2 (fresh agent) to .2: each attempt connects
    // to what that attempt resolved, never to a later answer.
    good.requests.length = 0;
    const resolver = scripted(['127.0.0.1'], ['127.0.0.2']);
    await attemptDelivery(request({ resolver, allowedPrivateCidrs: ['127.0.0.0/8'] }));
    await attemptDelivery(request({ resolver, allowedPrivateCidrs: ['127.0.0.0/8'] }));
    t.equal(good.requests.length, 1);
    t.equal(evil!.requests.length, 1);
    t.equal(evil!.requests[0]!.localAddress, '127.0.0.2');
  },
);

t.test('the host name is never resolved by the system resolver', async (t) => {
  // receiver.test does not exist in real DNS; only the injected resolver knows it.
  good.requests.length = 0;
  const r = await attemptDelivery(request({ resolver: scripted(['127.0.0.1']) }));
  t.match(r, { statusCode: 200 });
  t.equal(good.requests[0]?.servername, 'receiver.test');
});

t.test('policy failures become attempt results', async (t) => {
  good.requests.length = 0;
  const notFound: Resolver = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND receiver.test'), { code: 'ENOTFOUND' });
  };
  const dns = await attemptDelivery(request({ resolver: notFound }));
  t.match(dns, {
    failureClass: 'dns',
    errorMessage:
      'The host name of the URL does not resolve to public addresses only (it has no address, or one that is not publicly routable).',
  });
  t.equal(classifyOutcome(dns), 'retry');

  const started = Date.now();
  const slow = await attemptDelivery(request({ resolver: () => new Promise(() => undefined), timeoutMs: 200 }));
  t.match(slow, { failureClass: 'dns' });
  t.ok(Date.now() - started < 5000, 'the lookup is inside the attempt budget (the resolver never answers)');

  // A name that now resolves to a private address reads as one that does not resolve (url-policy.ts).
  const priv = await attemptDelivery(request({ resolver: scripted(['10.0.0.8']) }));
  t.same([priv.failureClass, priv.errorMessage], [dns.failureClass, dns.errorMessage]);

  const http = await attemptDelivery(request({ url: `http://127.0.0.1:${good.port}/hook` }));
  t.match(http, { failureClass: 'blocked_address' });

  const literal = await attemptDelivery(request({ url: good.url, allowedPrivateCidrs: [] }));
  t.match(literal, { failureClass: 'blocked_address' }, 'no allow-list, no loopback');
  t.equal(good.requests.length, 0, 'none of these reached the receiver');
});

t.test('timeout class and total latency', async (t) => {
  // The answer would come only after 10 s: a latency near 300 ms is the deadline's doing, and the
  // upper bound leaves room for a loaded machine.
  good.respondWith(() => ({ delayMs: 10_000 }));
  t.teardown(() => good.respondWith(() => ({ status: 200 })));
  const r = await attemptDelivery(request({ resolver: scripted(['127.0.0.1']), timeoutMs: 300 }));
  t.match(r, { failureClass: 'timeout', errorMessage: 'No complete response within 300 ms' });
  t.ok(r.latencyMs >= 250 && r.latencyMs < 5000, `latency ${r.latencyMs} ms is about the deadline`);
});
