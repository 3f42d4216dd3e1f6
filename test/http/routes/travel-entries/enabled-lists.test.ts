// The company's enabled countries and currencies hold on entry writes: a country or currency
// outside them is a 400 keyed by field, over real HTTP; so is a code that names no currency at all.
import t from 'tap';
import { setEnabledLists } from '../../../../src/tenancy/tenants.js';
import { startTestApp } from '../../../helpers/app.js';

t.test('entries outside the enabled countries and currencies are refused by field', async (t) => {
  const app = await startTestApp(t);
  const tenant = await app.newTenant({ country: 'HR' });
  await setEnabledLists(app.rt.handle.db, tenant.id, { countries: ['HR', 'AT'], currencies: ['EUR'] });
  const employee = await app.request('POST', '/api/v1/employees', { key: tenant.key, body: { firstName: 'Ana', lastName: 'Horvat' } });
  t.equal(employee.status, 201, employee.text);
  const body = (over: Record<string, unknown>) => ({
    employeeId: employee.body.id,
    departureDate: '2026-03-02',
    returnDate: '2026-03-03',
    travelType: 'Foreign',
    currencyCode: 'EUR',
    ...over,
  });

  const refused = await app.request('POST', '/api/v1/travel-entries', {
    key: tenant.key,
    body: body({
      destinationCountryCode: 'DE',
      expenses: [{ date: '2026-03-02', category: 'Taxi', amount: 10, currencyCode: 'USD', manualExchangeRate: 1.1 }],
    }),
  });
  t.equal(refused.status, 400, refused.text);
  t.equal(refused.body.code, 'VALIDATION_FAILED');
  t.ok(refused.body.errors?.destinationCountryCode, 'the country is named');
  t.ok(refused.body.errors?.['expenses[0].currencyCode'], 'the currency is named');

  const accepted = await app.request('POST', '/api/v1/travel-entries', { key: tenant.key, body: body({ destinationCountryCode: 'AT' }) });
  t.equal(accepted.status, 201, accepted.text);

  const replaced = await app.request('PUT', `/api/v1/travel-entries/${accepted.body.id}`, {
    key: tenant.key,
    body: body({ destinationCountryCode: 'AT', currencyCode: 'USD', advancePayment: 0 }),
  });
  t.equal(replaced.status, 400, replaced.text);
  t.ok(replaced.body.errors?.currencyCode, 'the entry currency is named on a replacement');
});

t.test('a currency code that names no money is refused by field, even with a manual rate', async (t) => {
  const app = await startTestApp(t);
  const tenant = await app.newTenant({ country: 'HR' });
  const employee = await app.request('POST', '/api/v1/employees', { key: tenant.key, body: { firstName: 'Ana', lastName: 'Horvat' } });
  t.equal(employee.status, 201, employee.text);
  const create = (currencyCode: string, manualExchangeRate: number | undefined = 7.5) =>
    app.request('POST', '/api/v1/travel-entries', {
      key: tenant.key,
      body: {
        employeeId: employee.body.id,
        departureDate: '2022-03-02',
        returnDate: '2022-03-03',
        travelType: 'Domestic',
        currencyCode: 'EUR',
        expenses: [{ date: '2022-03-02', category: 'Taxi', amount: 10, currencyCode, manualExchangeRate }],
      },
    });
  const refused = await create('XYZ');
  t.equal(refused.status, 400, refused.text);
  t.match(refused.body, { code: 'VALIDATION_FAILED', errors: { 'expenses[0].currencyCode': [/ISO 4217/] } });
  const noRate = await create('XYZ', undefined);
  t.equal(noRate.status, 400, noRate.text);
  t.same(Object.keys(noRate.body.errors ?? {}), ['expenses[0].currencyCode'], 'without a manual rate: the code alone, no missing rate');
  const former = await create('HRK');
  t.equal(former.status, 201, `a former currency of the region is accepted: ${former.text}`);
});
