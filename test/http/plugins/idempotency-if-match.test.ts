// An Idempotency-Key's request includes its If-Match (outside try, session 23): a write refused 412
// for a stale revision, retried with the same key and the corrected revision, got the stored 412
// back, "If-Match names revision 0", for a request that named another. A retry with the same key
// and the same If-Match still replays; one with another If-Match is another request (422).
import t from 'tap';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { requestFingerprint, sameRequest } from '../../../src/http/request-fingerprint.js';
import { startTestApp } from '../../helpers/app.js';

t.test('If-Match is part of the request a key names', async (t) => {
  const app = await startTestApp(t);
  const employeeId = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ida', lastName: 'Match' } })).body.id as string;
  const entry = await app.request('POST', '/api/v1/travel-entries', {
    body: { employeeId, departureDate: '2026-03-02', returnDate: '2026-03-02', travelType: 'Domestic', currencyCode: 'EUR' },
  });
  const id = entry.body.id as string;
  await app.request('PUT', `/api/v1/travel-entries/${id}`, {
    body: { employeeId, departureDate: '2026-03-02', returnDate: '2026-03-02', travelType: 'Domestic', currencyCode: 'EUR', purpose: 'x' },
  });
  const current = (await app.request('GET', `/api/v1/travel-entries/${id}`)).headers.get('etag')!;
  t.equal(current, '"1"');
  const expense = { date: '2026-03-02', category: 'Parking', amount: '5.00', currencyCode: 'EUR' };
  const add = (key: string, ifMatch: string) =>
    app.request('POST', `/api/v1/travel-entries/${id}/expenses`, {
      body: expense,
      headers: { 'idempotency-key': key, 'if-match': ifMatch },
    });

  const stale = await add('im-1', '"0"');
  t.equal(stale.status, 412, stale.text);
  const staleAgain = await add('im-1', '"0"');
  t.same([staleAgain.status, staleAgain.headers.get('idempotent-replayed')], [412, 'true'], 'the same request replays');
  const corrected = await add('im-1', current);
  t.same([corrected.status, corrected.body.code], [422, 'IDEMPOTENCY_KEY_REUSED'], corrected.text);

  const fresh = await add('im-2', current);
  t.equal(fresh.status, 201, fresh.text);
  const replay = await add('im-2', current);
  t.same([replay.status, replay.headers.get('idempotent-replayed'), replay.text], [201, 'true', fresh.text], 'a retry replays the 201');
  const entryNow = await app.request('GET', `/api/v1/travel-entries/${id}`);
  t.equal(entryNow.body.expenses.length, 1, 'one expense: only im-2 wrote');
});

t.test('a key stored before If-Match counted still replays its retry', async (t) => {
  const request = (ifMatch?: string) =>
    ({
      method: 'POST',
      url: '/api/v1/travel-entries/x/expenses',
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
      body: { a: 1 },
      routeOptions: { schema: { body: {} } },
    }) as unknown as FastifyRequest;
  const legacy = createHash('sha256').update('POST /api/v1/travel-entries/x/expenses\n{"a":1}').digest('hex');
  t.equal(requestFingerprint(request()), legacy, 'without If-Match the fingerprint is as before');
  t.not(requestFingerprint(request('"3"')), legacy, 'with one it differs');
  t.ok(sameRequest(request('"3"'), requestFingerprint(request('"3"')), legacy), 'an old key matches its retry');
  t.notOk(
    sameRequest(request('"4"'), requestFingerprint(request('"4"')), requestFingerprint(request('"3"'))),
    'a new key names its If-Match',
  );
});
