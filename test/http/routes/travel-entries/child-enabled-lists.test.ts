// The company's enabled countries and currencies hold on single child-row writes too: adding or
// changing one expense or per diem with a country or currency outside the lists is a 400 keyed as
// the row's body names the field (`countryCode`, `currencyCode`), and nothing is recorded.
import t, { type Test } from 'tap';
import { setEnabledLists } from '../../../../src/tenancy/tenants.js';
import { startTestApp } from '../../../helpers/app.js';

t.test('child rows outside the enabled countries and currencies are refused by field', async (t) => {
  const app = await startTestApp(t);
  const tenant = await app.newTenant({ country: 'HR' });
  await setEnabledLists(app.rt.handle.db, tenant.id, { countries: ['HR', 'AT'], currencies: ['EUR'] });
  const call = (method: string, path: string, body?: unknown) =>
    app.request(method, `/api/v1/travel-entries${path}`, { key: tenant.key, ...(body === undefined ? {} : { body }) });
  const employee = await app.request('POST', '/api/v1/employees', { key: tenant.key, body: { firstName: 'Ana', lastName: 'Horvat' } });
  const entry = await call('POST', '', {
    employeeId: employee.body.id,
    departureDate: '2026-03-02',
    returnDate: '2026-03-03',
    travelType: 'Foreign',
    destinationCountryCode: 'AT',
    currencyCode: 'EUR',
  });
  t.equal(entry.status, 201, entry.text);
  const id = entry.body.id as string;

  const expense = (currencyCode: string) => ({
    date: '2026-03-02',
    category: 'Taxi',
    amount: 10,
    currencyCode,
    ...(currencyCode === 'EUR' ? {} : { manualExchangeRate: 1.1 }),
  });
  const perDiem = (countryCode: string, currencyCode?: string) => ({
    countryCode,
    departureTime: '2026-03-02T06:00:00Z',
    arrivalTime: '2026-03-02T20:00:00Z',
    ...(currencyCode ? { currencyCode } : {}),
  });
  const refusedBy = async (t: Test, res: Awaited<ReturnType<typeof call>>, fields: string[]) => {
    t.equal(res.status, 400, res.text);
    t.equal(res.body.code, 'VALIDATION_FAILED');
    t.same(Object.keys(res.body.errors ?? {}).sort(), fields, res.text);
    for (const f of fields) t.match(res.body.errors[f][0], /has not enabled/);
  };

  t.test('expenses: add and change', async (t) => {
    await refusedBy(t, await call('POST', `/${id}/expenses`, expense('USD')), ['currencyCode']);
    const added = await call('POST', `/${id}/expenses`, expense('EUR'));
    t.equal(added.status, 201, added.text);
    const expenseId = added.body.expenses[0].id as string;
    await refusedBy(t, await call('PUT', `/${id}/expenses/${expenseId}`, expense('USD')), ['currencyCode']);
    const read = await call('GET', `/${id}`);
    t.same(
      read.body.expenses.map((e: { currencyCode: string }) => e.currencyCode),
      ['EUR'],
      'the refused change recorded nothing',
    );
  });

  t.test('per diems: add and change', async (t) => {
    await refusedBy(t, await call('POST', `/${id}/per-diems`, perDiem('DE')), ['countryCode']);
    await refusedBy(t, await call('POST', `/${id}/per-diems`, perDiem('DE', 'USD')), ['countryCode', 'currencyCode']);
    const added = await call('POST', `/${id}/per-diems`, perDiem('AT', 'EUR'));
    t.equal(added.status, 201, added.text);
    const perDiemId = added.body.perDiems[0].id as string;
    await refusedBy(t, await call('PUT', `/${id}/per-diems/${perDiemId}`, perDiem('SI')), ['countryCode']);
    await refusedBy(t, await call('PUT', `/${id}/per-diems/${perDiemId}`, perDiem('AT', 'CHF')), ['currencyCode']);
    const changed = await call('PUT', `/${id}/per-diems/${perDiemId}`, perDiem('HR'));
    t.equal(changed.status, 200, changed.text);
    t.equal(changed.body.perDiems[0].countryCode, 'HR');
  });

  t.test('a company that enables everything takes any code', async (t) => {
    await setEnabledLists(app.rt.handle.db, tenant.id, { countries: null, currencies: null });
    const expenseAdded = await call('POST', `/${id}/expenses`, expense('USD'));
    t.equal(expenseAdded.status, 201, expenseAdded.text);
    // The next day: the entry's HR row holds the 2nd (one time is paid once).
    const nextDay = { departureTime: '2026-03-03T06:00:00Z', arrivalTime: '2026-03-03T20:00:00Z' };
    const perDiemAdded = await call('POST', `/${id}/per-diems`, { ...perDiem('AT', 'CHF'), ...nextDay });
    t.equal(perDiemAdded.status, 201, perDiemAdded.text);
  });
});
