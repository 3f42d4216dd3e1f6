// Partner-side verification: every rejection reason, and a proof that a verifier written for the
// common payment-provider scheme (as a partner would write it, below) accepts our header once it
// reads Service-Signature instead of the provider's header.
import t from 'tap';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signPayload } from '../../src/webhooks/delivery/signature.js';
import { explainServiceSignature, verifyServiceSignature } from '../../src/webhooks/verify.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = Buffer.from('{"id":"evt_00000000000000000000000000000001","type":"entry.updated","data":{"title":"Zoë → Köln"}}', 'utf8');
const now = 1_800_000_000;

t.test('accepts a fresh signature; string and Buffer bodies', async (t) => {
  const header = signPayload(body, [secret], now);
  t.equal(verifyServiceSignature(body, header, secret, { nowSec: now }), true);
  t.equal(verifyServiceSignature(body.toString('utf8'), header, secret, { nowSec: now }), true);
  t.equal(verifyServiceSignature(new Uint8Array(body), header, [secret], { nowSec: now }), true);
  t.same(explainServiceSignature(body, header, secret, { nowSec: now }), { ok: true, timestampSec: now });
});

t.test('rotation: either secret, either v1 entry', async (t) => {
  const header = signPayload(body, ['whsec_new', 'whsec_old'], now);
  t.ok(verifyServiceSignature(body, header, 'whsec_new', { nowSec: now }));
  t.ok(verifyServiceSignature(body, header, 'whsec_old', { nowSec: now }));
  t.ok(verifyServiceSignature(body, signPayload(body, ['whsec_old'], now), ['whsec_new', 'whsec_old'], { nowSec: now }));
  t.notOk(verifyServiceSignature(body, header, 'whsec_other', { nowSec: now }));
});

t.test('rejection reasons', async (t) => {
  const header = signPayload(body, [secret], now);
  const reason = (b: Buffer | string, h: string | undefined, opts = {}) => {
    const r = explainServiceSignature(b, h, secret, { nowSec: now, ...opts });
    return r.ok ? 'ok' : r.reason;
  };
  t.equal(reason(body, undefined), 'missing_header');
  t.equal(reason(body, ''), 'missing_header');
  t.equal(reason(body, '   '), 'missing_header');
  t.equal(explainServiceSignature(body, [], secret, { nowSec: now }).ok, false);
  t.same(
    explainServiceSignature(body, [header, header], secret, { nowSec: now }),
    { ok: false, reason: 'malformed_header' },
    'header sent twice',
  );
  t.same(
    explainServiceSignature(body, [header], secret, { nowSec: now }),
    { ok: true, timestampSec: now },
    'one-element array from IncomingHttpHeaders',
  );
  for (const bad of [
    'garbage',
    `v1=${'a'.repeat(64)}`, // no t
    `t=${now}`, // no v1
    `t=${now},v0=${'a'.repeat(64)}`, // only an unknown scheme
    `t=abc,v1=${'a'.repeat(64)}`,
    `t=-5,v1=${'a'.repeat(64)}`,
    `t=1.5,v1=${'a'.repeat(64)}`,
    `t=${now},t=${now},v1=${'a'.repeat(64)}`, // two timestamps
    `t=${now},v1=${'a'.repeat(63)}`, // short hex
    `t=${now},v1=${'g'.repeat(64)}`, // not hex
    `t=${now},v1=`,
    `t=${now},,v1=${'a'.repeat(64)}`,
    `t=${now};v1=${'a'.repeat(64)}`,
  ])
    t.equal(reason(body, bad), 'malformed_header', bad);
  t.equal(reason(body, `t=${now},v1=${'a'.repeat(64)}`), 'signature_mismatch');
  t.equal(reason(Buffer.concat([body, Buffer.from(' ')]), header), 'signature_mismatch', 'one extra byte');
  t.equal(reason(body, header.replace(`t=${now}`, `t=${now + 1}`)), 'signature_mismatch', 'timestamp is signed');
  t.equal(reason(JSON.stringify(JSON.parse(body.toString()), null, 2), header), 'signature_mismatch', 're-serialised body');
  t.equal(reason(body, header, { nowSec: now + 301 }), 'timestamp_too_old');
  t.equal(reason(body, header, { nowSec: now + 300 }), 'ok', 'exactly at the tolerance');
  t.equal(reason(body, header, { nowSec: now + 61, toleranceSec: 60 }), 'timestamp_too_old');
  t.equal(reason(body, header, { nowSec: now - 31 }), 'timestamp_in_future');
  t.equal(reason(body, header, { nowSec: now - 30 }), 'ok', 'exactly at the skew margin');
  t.equal(reason(body, header, { nowSec: now - 100, futureSkewSec: 120 }), 'ok');
  const asAny = explainServiceSignature as (...args: unknown[]) => ReturnType<typeof explainServiceSignature>;
  t.same(
    asAny(JSON.parse(body.toString()), header, secret, { nowSec: now }),
    { ok: false, reason: 'invalid_body' },
    'a parsed object is not a raw body',
  );
  t.equal(verifyServiceSignature(body, header, secret, { nowSec: now + 1000 }), false, 'boolean form rejects too');
});

t.test('tolerates spaces and unknown schemes; accepts uppercase hex', async (t) => {
  const v1 = signPayload(body, [secret], now).split(',v1=')[1]!;
  t.ok(verifyServiceSignature(body, `t=${now}, v1=${v1}`, secret, { nowSec: now }));
  t.ok(verifyServiceSignature(body, `t=${now},v0=zzz,v1=${v1},v2=whatever`, secret, { nowSec: now }));
  t.ok(verifyServiceSignature(body, `t=${now},v1=${v1.toUpperCase()}`, secret, { nowSec: now }));
});

t.test('no secret is a configuration error, not a rejection', async (t) => {
  const header = signPayload(body, [secret], now);
  t.throws(() => verifyServiceSignature(body, header, [], { nowSec: now }), TypeError);
  t.throws(() => verifyServiceSignature(body, header, '', { nowSec: now }), TypeError);
});

t.test('default clock: a header signed now passes, one signed 10 minutes ago does not', async (t) => {
  const nowReal = Math.floor(Date.now() / 1000);
  t.ok(verifyServiceSignature(body, signPayload(body, [secret], nowReal), secret));
  t.notOk(verifyServiceSignature(body, signPayload(body, [secret], nowReal - 600), secret));
});

// --- A partner's verifier for the payment-provider scheme, written from that scheme's public
// description only: split the header on ',', each item on '=', take `t` and every `v1`; compute
// HMAC-SHA256 keyed with the endpoint secret string over `${t}.${payload}`; compare each v1 in
// constant time; reject when t is older than the tolerance. The only change for us: the header name.
function providerStyleVerify(
  payload: string | Buffer,
  sigHeader: string,
  endpointSecret: string,
  toleranceSec = 300,
  nowSec = Math.floor(Date.now() / 1000),
): boolean {
  const items = sigHeader.split(',').map((item) => item.split('='));
  const timestamp = items.find(([k]) => k === 't')?.[1];
  const signatures = items.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  if (!timestamp || signatures.length === 0) return false;
  const expected = createHmac('sha256', endpointSecret).update(`${timestamp}.${payload.toString()}`, 'utf8').digest('hex');
  const exp = Buffer.from(expected);
  const anyMatch = signatures.some((s) => {
    const got = Buffer.from(s);
    return got.length === exp.length && timingSafeEqual(got, exp);
  });
  return anyMatch && nowSec - Number(timestamp) <= toleranceSec;
}

t.test('a payment-provider-style verifier accepts our deliveries after the header rename', async (t) => {
  const incoming = { 'service-signature': signPayload(body, [secret], now) };
  const header = incoming['service-signature']; // was: the provider's signature header
  t.ok(providerStyleVerify(body.toString('utf8'), header, secret, 300, now), 'string payload');
  t.ok(providerStyleVerify(body, header, secret, 300, now), 'Buffer payload');
  t.ok(providerStyleVerify(body, signPayload(body, [secret, 'whsec_old'], now), secret, 300, now), 'two v1 entries during rotation');
  t.ok(providerStyleVerify(body, signPayload(body, ['whsec_new', secret], now), secret, 300, now), 'old secret still verifies');
  t.notOk(providerStyleVerify(body, header, 'whsec_wrong', 300, now));
  t.notOk(providerStyleVerify(body, header, secret, 300, now + 301));
  // And the other way round: our verifier accepts what a provider-style signer produces.
  const theirs = `t=${now},v1=${createHmac('sha256', secret).update(`${now}.${body.toString()}`).digest('hex')}`;
  t.equal(theirs, signPayload(body, [secret], now), 'byte-identical header');
  t.ok(verifyServiceSignature(body, theirs, secret, { nowSec: now }));
});
