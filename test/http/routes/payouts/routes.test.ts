// Payouts and reference data over real HTTP.
import t from 'tap';
import { importRatesFile } from '../../../../src/rates/import-command.js';
import { fixturePath, CNB_2025_04_25, HNB_RANGE } from '../../../rates/fixture-files.js';
import { startTestApp, type TestApp } from '../../../helpers/app.js';

async function approvedEntry(app: TestApp, employeeId: string, key = app.tenant.key): Promise<string> {
  const e = await app.request('POST', '/api/v1/travel-entries', {
    key,
    body: {
      employeeId,
      departureDate: '2025-04-14',
      returnDate: '2025-04-15',
      travelType: 'Domestic',
      currencyCode: 'EUR',
      advancePayment: 50,
    },
  });
  if (e.status !== 201) throw new Error(e.text);
  const s = await app.request('POST', `/api/v1/travel-entries/${e.body.id}/submit`, { key });
  if (s.body.status !== 'Approved') throw new Error(s.text);
  return e.body.id;
}

t.test('payouts', async (t) => {
  const app = await startTestApp(t);
  const emp = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Pay', lastName: 'Me' } })).body.id;

  t.test('ready list, batch, history, reversal', async (t) => {
    const a = await approvedEntry(app, emp);
    const b = await approvedEntry(app, emp);
    const draft = (
      await app.request('POST', '/api/v1/travel-entries', {
        body: { employeeId: emp, departureDate: '2025-04-14', returnDate: '2025-04-15', travelType: 'Domestic', currencyCode: 'EUR' },
      })
    ).body.id;
    const ready = await app.request('GET', '/api/v1/payouts/ready');
    t.same(ready.body.items.map((e: { id: string }) => e.id).sort(), [a, b].sort());

    const refused = await app.request('POST', '/api/v1/payouts/batches', {
      body: { entryIds: [a, draft], payoutMethod: 'BankTransfer', payoutDate: '2025-04-30' },
    });
    t.equal(refused.status, 409, 'a draft cannot be paid: the whole batch is refused');
    t.equal((await app.request('GET', '/api/v1/payouts/ready')).body.total, 2, 'nothing was written');

    const batch = await app.request('POST', '/api/v1/payouts/batches', {
      body: { entryIds: [a, b], payoutMethod: 'BankTransfer', payoutDate: '2025-04-30' },
    });
    t.equal(batch.status, 201, batch.text);
    t.match(batch.body, { status: 'Created', payoutMethod: 'BankTransfer', entryIds: [a, b] });
    const paid = await app.request('GET', `/api/v1/travel-entries/${a}`);
    t.match(paid.body, { isPaidOut: true, locked: true, payoutBatchId: batch.body.id, paidOutAt: String });
    t.equal((await app.request('GET', '/api/v1/payouts/ready')).body.total, 0);
    const twice = await app.request('POST', '/api/v1/payouts/batches', {
      body: { entryIds: [a], payoutMethod: 'Cash', payoutDate: '2025-04-30' },
    });
    t.equal(twice.status, 409, 'an entry is paid out once');
    t.match(
      twice.body,
      { code: 'ALREADY_PAID_OUT', entryId: a, payoutBatchId: batch.body.id },
      'in the words of a lost race: the batch that holds it is named',
    );
    t.match(refused.body, { code: 'INVALID_TRANSITION', entryId: draft }, 'a draft is not paid out: its own refusal');

    const history = await app.request('GET', '/api/v1/payouts/batches');
    t.same([history.body.total, history.body.items[0].id], [1, batch.body.id]);
    // Incremental sync of batches (the ERP try, session 25): a deletion changes an old batch, which
    // a payroll system saw only by re-reading every batch.
    await new Promise((r) => setTimeout(r, 20));
    const mark = encodeURIComponent(new Date().toISOString());
    const sinceMark = async () => (await app.request('GET', `/api/v1/payouts/batches?updatedSince=${mark}`)).body.items;
    t.same(await sinceMark(), [], 'nothing changed since the mark');

    // If-Match on the reversal: a stale revision is refused and nothing is reversed (found from outside, session 14).
    const etag = batch.headers.get('etag')!;
    const stale = await app.request('DELETE', `/api/v1/payouts/batches/${batch.body.id}?reason=x`, { headers: { 'if-match': '"57"' } });
    t.match([stale.status, stale.body], [412, { code: 'PRECONDITION_FAILED' }], 'a stale If-Match: 412');
    t.match((await app.request('GET', `/api/v1/travel-entries/${a}`)).body, { isPaidOut: true }, 'and the entry stays paid out');
    const reversed = await app.request('DELETE', `/api/v1/payouts/batches/${batch.body.id}?reason=wrong%20date`, {
      headers: { 'if-match': etag },
    });
    t.same([reversed.status, reversed.body.status, reversed.body.deletionReason], [200, 'Deleted', 'wrong date']);
    t.same(
      (await sinceMark()).map((x: { id: string; status: string }) => [x.id, x.status]),
      [[batch.body.id, 'Deleted']],
      'the deletion reaches an incremental sync',
    );
    const bad = await app.request('GET', '/api/v1/payouts/batches?updatedSince=yesterday');
    t.same([bad.status, Object.keys(bad.body.errors ?? {})], [400, ['updatedSince']]);
    const back = await app.request('GET', `/api/v1/travel-entries/${a}`);
    t.match(back.body, { isPaidOut: false, paidOutAt: null, status: 'Approved' });
    t.equal((await app.request('GET', '/api/v1/payouts/ready')).body.total, 2, 'reversed entries are ready again');
    t.equal((await app.request('DELETE', `/api/v1/payouts/batches/${batch.body.id}`)).status, 409);

    const other = await app.newTenant();
    t.equal((await app.request('GET', `/api/v1/payouts/batches/${batch.body.id}`, { key: other.key })).status, 404);
    t.equal((await app.request('DELETE', `/api/v1/payouts/batches/${batch.body.id}`, { key: other.key })).status, 404);
    const foreign = await app.request('POST', '/api/v1/payouts/batches', {
      key: other.key,
      body: { entryIds: [a], payoutMethod: 'Cash', payoutDate: '2025-04-30' },
    });
    t.same([foreign.status, Object.keys(foreign.body.errors ?? {})], [400, ['entryIds[0]']], "another tenant's entry is unknown");
    t.equal(
      (await app.request('POST', '/api/v1/payouts/batches', { body: { entryIds: [a], payoutMethod: 'Bitcoin', payoutDate: '2025-04-30' } }))
        .status,
      400,
    );
  });

  t.test('exchange rates of the tenant provider, with direction', async (t) => {
    await importRatesFile(app.rt.handle.db, 'HNB', fixturePath(HNB_RANGE));
    await importRatesFile(app.rt.handle.db, 'CNB', fixturePath(CNB_2025_04_25));
    const hr = await app.request('GET', '/api/v1/reference/exchange-rates?date=2025-04-14&currency=USD');
    t.same(hr.body.items, [
      { source: 'HNB', date: '2025-04-14', currency: 'USD', rate: 1.1346, units: 1, baseCurrency: 'EUR', direction: 'ForeignPerBase' },
    ]);
    const weekend = await app.request('GET', '/api/v1/reference/exchange-rates?date=2025-04-13&currency=usd');
    t.same(weekend.body.items[0].date, '2025-04-11', 'a weekend uses the latest earlier list');
    const cz = await app.newTenant({ country: 'CZ' });
    const czk = await app.request('GET', '/api/v1/reference/exchange-rates?date=2025-04-25', { key: cz.key });
    t.ok(czk.body.items.length > 10);
    t.ok(
      czk.body.items.every(
        (r: { source: string; direction: string; baseCurrency: string }) =>
          r.source === 'CNB' && r.direction === 'BasePerForeign' && r.baseCurrency === 'CZK',
      ),
    );
    t.equal((await app.request('GET', '/api/v1/reference/exchange-rates?date=2025-13-45')).status, 400);
  });
});
