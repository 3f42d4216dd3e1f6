// The Idempotency-Key fingerprint (src/http/request-fingerprint.ts): the body as a JSON value, so
// reordered keys are the same request; a key stored before the change (the body's plain text) still
// matches a retry of the very same body.
import t from 'tap';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { requestFingerprint, sameRequest } from '../../src/http/request-fingerprint.js';

const request = (body: unknown, url = '/api/v1/employees'): FastifyRequest =>
  ({ method: 'POST', url, body, routeOptions: { schema: { body: {} } } }) as unknown as FastifyRequest;
const legacy = (r: FastifyRequest): string =>
  createHash('sha256')
    .update(`${r.method} ${r.url}\n${JSON.stringify(r.body ?? null)}`)
    .digest('hex');

t.test('the same JSON value is the same request, whatever the order of its keys', async (t) => {
  const a = request({ firstName: 'Ana', lastName: 'Horvat', address: { city: 'Zagreb', zip: '10000' } });
  const b = request({ address: { zip: '10000', city: 'Zagreb' }, lastName: 'Horvat', firstName: 'Ana' });
  t.equal(requestFingerprint(a), requestFingerprint(b));
  const eva = request({ firstName: 'Eva', lastName: 'Horvat' });
  const departments = request(a.body, '/api/v1/departments');
  t.ok(sameRequest(b, requestFingerprint(b), requestFingerprint(a)));
  t.notOk(sameRequest(eva, requestFingerprint(eva), requestFingerprint(a)), 'another body');
  t.notOk(sameRequest(departments, requestFingerprint(departments), requestFingerprint(a)), 'another URL');
  t.notOk(sameRequest(a, requestFingerprint(a), null), 'no stored fingerprint');
});

t.test('a fingerprint stored before the change still matches the same body', async (t) => {
  const a = request({ lastName: 'Horvat', firstName: 'Ana' });
  t.not(legacy(a), requestFingerprint(a), 'the two forms differ for keys out of order');
  t.ok(sameRequest(a, requestFingerprint(a), legacy(a)));
  const eva = request({ lastName: 'Horvat', firstName: 'Eva' });
  t.notOk(sameRequest(eva, requestFingerprint(eva), legacy(a)));
});

t.test('a body with no canonical form still has a fingerprint', async (t) => {
  const odd = request({ name: 'a\ud800' });
  t.type(requestFingerprint(odd), 'string');
  t.ok(sameRequest(odd, requestFingerprint(odd), requestFingerprint(odd)));
});
