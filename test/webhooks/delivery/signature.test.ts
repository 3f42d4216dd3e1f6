// Signing: known-answer vectors computed independently with
//   printf '<t>.<body>' | openssl dgst -sha256 -hmac '<secret>'
// (the key is the full whsec_ string), plus rotation and the delivery header set.
import t from 'tap';
import { buildDeliveryHeaders } from '../../../src/webhooks/delivery/headers.js';
import { computeV1, generateSigningSecret, signPayload } from '../../../src/webhooks/delivery/signature.js';

const body = Buffer.from('{"id":"evt_0123","type":"entry.created"}', 'utf8');

t.test('known-answer vectors', async (t) => {
  t.equal(
    signPayload(body, ['whsec_test_secret'], 1700000000),
    't=1700000000,v1=5291111c9048e01037c881c87f6a3d9568e366ddf20772214942406270f55b39',
  );
  t.equal(
    computeV1(Buffer.from('{"name":"Zoë","amount":"12.50 €"}', 'utf8'), 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 1234567890),
    '8833da80873c2ed31665eb6de9a977a0559bdda1f328a48e23c10a4376c2b24b',
    'multibyte body bytes are signed as sent',
  );
  t.equal(
    signPayload(Buffer.alloc(0), ['whsec_x'], 0),
    't=0,v1=4e8c2621ad6b7e8ee9325e803d12429025d82e5abc79b476cf0efabfaf9a6e57',
    'empty body, t=0',
  );
});

t.test('several secrets give one v1 per secret, in order', async (t) => {
  t.equal(
    signPayload(body, ['whsec_test_secret', 'whsec_rotated_secret'], 1700000000),
    't=1700000000,v1=5291111c9048e01037c881c87f6a3d9568e366ddf20772214942406270f55b39' +
      ',v1=2dd7a7f7c9b97c9693cf1a1cc5c9b2b9be1f43bc842e84f1ff5765330cf866a7',
  );
});

t.test('the body is signed byte for byte, not re-serialised', async (t) => {
  const a = signPayload(Buffer.from('{"a":1,"b":2}'), ['whsec_k'], 1);
  const b = signPayload(Buffer.from('{"b":2,"a":1}'), ['whsec_k'], 1);
  const c = signPayload(Buffer.from('{"a":1, "b":2}'), ['whsec_k'], 1);
  t.not(a, b);
  t.not(a, c);
  t.match(a, /^t=1,v1=[0-9a-f]{64}$/, 'lowercase hex, no spaces');
});

t.test('bad input throws', async (t) => {
  t.throws(() => signPayload(body, [], 1));
  t.throws(() => signPayload(body, [''], 1));
  t.throws(() => signPayload(body, ['whsec_k'], 1.5));
  t.throws(() => signPayload(body, ['whsec_k'], -1));
});

t.test('generateSigningSecret: whsec_ + 32 random bytes, base64url', async (t) => {
  const a = generateSigningSecret();
  const b = generateSigningSecret();
  t.match(a, /^whsec_[A-Za-z0-9_-]{43}$/);
  t.equal(Buffer.from(a.slice(6), 'base64url').length, 32);
  t.not(a, b);
});

t.test('buildDeliveryHeaders: exactly the spec header set', async (t) => {
  const headers = buildDeliveryHeaders({
    body,
    secrets: ['whsec_test_secret'],
    eventType: 'entry.created',
    eventId: '01234567-89ab-cdef-0123-456789abcdef',
    deliveryId: 'dlv_1',
    nowSec: 1700000000,
  });
  t.same(headers, {
    'Content-Type': 'application/json; charset=utf-8',
    'User-Agent': 'Service-Webhook/1.0',
    'Service-Event': 'entry.created',
    'Service-Event-Id': '01234567-89ab-cdef-0123-456789abcdef',
    'Service-Signature': 't=1700000000,v1=5291111c9048e01037c881c87f6a3d9568e366ddf20772214942406270f55b39',
    'Service-Delivery-Id': 'dlv_1',
  });
});
