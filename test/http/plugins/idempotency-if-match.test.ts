// An Idempotency-Key and If-Match (outside try, session 23): a write refused 412 for a stale
// revision, retried with the same key and the corrected revision, got the stored 412 back, "If-Match
// names revision 0", for a request that named another. A 412 wrote nothing, so it is no longer
// stored: the corrected retry runs. If-Match stays out of the fingerprint (review): a client whose
// 201 was lost may retry with the ETag it has read since, and gets that 201 back, not a 422.
import t from 'tap';
import { startTestApp } from '../../helpers/app.js';

t.test('Idempotency-Key with If-Match', async (t) => {
  const app = await startTestApp(t);
  const employeeId = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ida', lastName: 'Match' } })).body.id as string;
  const body = { employeeId, departureDate: '2026-03-02', returnDate: '2026-03-02', travelType: 'Domestic', currencyCode: 'EUR' };
  const id = (await app.request('POST', '/api/v1/travel-entries', { body })).body.id as string;
  await app.request('PUT', `/api/v1/travel-entries/${id}`, { body: { ...body, purpose: 'x' } });
  const etag = async () => (await app.request('GET', `/api/v1/travel-entries/${id}`)).headers.get('etag')!;
  t.equal(await etag(), '"1"');
  const expense = { date: '2026-03-02', category: 'Parking', amount: '5.00', currencyCode: 'EUR' };
  const add = (key: string, ifMatch: string) =>
    app.request('POST', `/api/v1/travel-entries/${id}/expenses`, {
      body: expense,
      headers: { 'idempotency-key': key, 'if-match': ifMatch },
    });

  const stale = await add('im-1', '"0"');
  t.equal(stale.status, 412, stale.text);
  const staleAgain = await add('im-1', '"0"');
  t.same([staleAgain.status, staleAgain.headers.get('idempotent-replayed')], [412, null], 'refused again, not replayed');
  const corrected = await add('im-1', '"1"');
  t.equal(corrected.status, 201, `the corrected retry runs: ${corrected.text}`);

  // The 201's reply was "lost": the client reads the entry and retries with the ETag it now has.
  const retried = await add('im-1', await etag());
  t.same([retried.status, retried.headers.get('idempotent-replayed'), retried.text], [201, 'true', corrected.text], 'the stored 201');
  const entry = await app.request('GET', `/api/v1/travel-entries/${id}`);
  t.equal(entry.body.expenses.length, 1, 'one expense');
});
