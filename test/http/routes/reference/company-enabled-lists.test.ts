// The company's enabled countries and currencies over real HTTP: GET /company shows them, GET
// /reference/countries and /reference/currencies mark them (currencies also say whether the
// tenant's provider has a rate), each change is seen at once (the principal cache hears it), and
// the admin operation behind `tenant set-enabled` refuses what it cannot store, keyed by flag.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';
import { operations } from '../../../../src/admin/operations.js';
import { setEnabledLists } from '../../../../src/tenancy/tenants.js';
import { upsertRates } from '../../../../src/rates/store.js';
import { DomainError } from '../../../../src/domain/errors.js';

interface Item {
  code: string;
  name: string;
  enabled: boolean;
  rateAvailable?: boolean;
}
const byCode = (items: Item[], code: string): Item | undefined => items.find((i) => i.code === code);

t.test('enabled countries and currencies', async (t) => {
  const app = await startTestApp(t);
  const db = app.rt.handle.db;

  t.test('a new company enables everything (null), and every item is enabled', async (t) => {
    const company = await app.request('GET', '/api/v1/company');
    t.equal(company.status, 200);
    t.match(company.body, { id: app.tenant.id, enabledCountries: null, enabledCurrencies: null });

    const countries = await app.request('GET', '/api/v1/reference/countries');
    t.equal(countries.status, 200);
    t.equal(countries.body.items.length, 250, '249 ISO 3166-1 codes and XK');
    t.same(byCode(countries.body.items, 'XK'), { code: 'XK', name: 'Kosovo', enabled: true });
    t.same(byCode(countries.body.items, 'HR'), { code: 'HR', name: 'Croatia', enabled: true });
    t.ok(countries.body.items.every((c: Item) => c.enabled && c.name.length > 0));

    const currencies = await app.request('GET', '/api/v1/reference/currencies');
    t.equal(currencies.status, 200);
    t.ok(currencies.body.items.length > 150);
    t.match(byCode(currencies.body.items, 'EUR'), { name: 'Euro', enabled: true, rateAvailable: true }, 'the base currency converts at 1');
    t.notOk(byCode(currencies.body.items, 'XAU'), 'gold is not money a traveller pays in');
    t.notOk(byCode(currencies.body.items, 'XXX'));
    t.ok(byCode(currencies.body.items, 'XOF'), 'CFA franc is');
  });

  t.test('rateAvailable: what the tenant provider has published within 7 days', async (t) => {
    const today = new Date().toISOString().slice(0, 10);
    await upsertRates(db, 'HNB', [{ date: today, currency: 'USD', rate: '1.08', units: 1 }]);
    await upsertRates(db, 'CNB', [{ date: today, currency: 'GBP', rate: '29.1', units: 1 }]);
    const items = (await app.request('GET', '/api/v1/reference/currencies')).body.items as Item[];
    t.equal(byCode(items, 'USD')?.rateAvailable, true, 'HNB publishes USD');
    t.equal(byCode(items, 'GBP')?.rateAvailable, false, 'a CNB rate is not the HR tenant’s');
    const cz = await app.newTenant({ country: 'CZ', scopes: ['read'] });
    const czItems = (await app.request('GET', '/api/v1/reference/currencies', { key: cz.key })).body.items as Item[];
    t.equal(byCode(czItems, 'GBP')?.rateAvailable, true);
    t.equal(byCode(czItems, 'CZK')?.rateAvailable, true, 'the CNB base currency');
    t.equal(byCode(czItems, 'EUR')?.rateAvailable, false);
  });

  t.test('set-enabled: the profile and the lists change at once; ?enabled filters', async (t) => {
    const run = operations['tenant set-enabled']!;
    const ctx = { db, store: app.rt.store, runner: app.rt.runner } as Parameters<typeof run>[0];
    await app.request('GET', '/api/v1/company'); // fill the principal cache
    t.same(await run(ctx, { tenant: app.tenant.id, countries: 'hr, si,AT,XK', currencies: 'EUR usd' }, () => undefined), {
      tenantId: app.tenant.id,
      enabledCountries: ['AT', 'HR', 'SI', 'XK'],
      enabledCurrencies: ['EUR', 'USD'],
    });
    t.match((await app.request('GET', '/api/v1/company')).body, {
      enabledCountries: ['AT', 'HR', 'SI', 'XK'],
      enabledCurrencies: ['EUR', 'USD'],
    });

    const countries = (await app.request('GET', '/api/v1/reference/countries')).body.items as Item[];
    t.equal(byCode(countries, 'SI')?.enabled, true);
    t.equal(byCode(countries, 'DE')?.enabled, false);
    const enabledOnly = await app.request('GET', '/api/v1/reference/countries?enabled=true');
    t.same(
      enabledOnly.body.items.map((c: Item) => c.code),
      ['AT', 'HR', 'SI', 'XK'],
    );
    t.equal((await app.request('GET', '/api/v1/reference/countries?enabled=false')).body.items.length, 246);
    t.same(
      (await app.request('GET', '/api/v1/reference/currencies?enabled=true')).body.items.map((c: Item) => [c.code, c.rateAvailable]),
      [
        ['EUR', true],
        ['USD', true],
      ],
    );

    t.same(
      await run(ctx, { tenant: app.tenant.id, currencies: 'CHF' }, () => undefined),
      {
        tenantId: app.tenant.id,
        enabledCountries: ['AT', 'HR', 'SI', 'XK'],
        enabledCurrencies: ['CHF'],
      },
      'a list not named stays',
    );
    await run(ctx, { tenant: app.tenant.id, all: true }, () => undefined);
    t.match((await app.request('GET', '/api/v1/company')).body, { enabledCountries: null, enabledCurrencies: null });
  });

  t.test('the admin operation refuses, keyed by flag', async (t) => {
    const run = operations['tenant set-enabled']!;
    const ctx = { db, store: app.rt.store, runner: app.rt.runner } as Parameters<typeof run>[0];
    const refusal = async (args: Record<string, string | boolean>) => {
      try {
        await run(ctx, { tenant: app.tenant.id, ...args }, () => undefined);
      } catch (err) {
        if (err instanceof DomainError)
          return { code: err.code, fields: Object.keys(err.errors ?? {}), message: JSON.stringify(err.errors) };
        throw err;
      }
      return undefined;
    };
    t.match(await refusal({ countries: 'HR,QQ' }), { code: 'VALIDATION_FAILED', fields: ['countries'], message: /QQ/ });
    t.match(await refusal({ countries: 'HRV' }), { fields: ['countries'] }, 'alpha-3 is not a code here');
    t.match(await refusal({ currencies: 'EUR,ABC' }), { fields: ['currencies'], message: /ABC/ });
    t.match(await refusal({ currencies: 'XAU' }), { fields: ['currencies'] }, 'not a currency of payment');
    t.match(await refusal({ countries: ' , ' }), { fields: ['countries'] }, 'an empty list');
    t.match(await refusal({ all: true, countries: 'HR' }), { fields: ['all'] });
    t.match(await refusal({}), { fields: ['countries'] }, 'nothing to set');
    t.match(await refusal({ tenant: '1f0e3c1a-0000-4000-8000-000000000000', all: true }), { code: 'TENANT_NOT_FOUND' });
    t.match((await app.request('GET', '/api/v1/company')).body, { enabledCountries: null, enabledCurrencies: null }, 'nothing was stored');
  });

  t.test('ETags: a change of the tenant lists changes them; If-None-Match answers 304', async (t) => {
    const first = await app.request('GET', '/api/v1/reference/countries');
    const etag = first.headers.get('etag')!;
    t.equal(first.headers.get('cache-control'), 'private, no-cache');
    t.equal((await app.request('GET', '/api/v1/reference/countries', { headers: { 'if-none-match': etag } })).status, 304);
    await setEnabledLists(db, app.tenant.id, { countries: ['HR'] });
    const after = await app.request('GET', '/api/v1/reference/countries', { headers: { 'if-none-match': etag } });
    t.equal(after.status, 200, 'the tenant’s change shows');
    t.not(after.headers.get('etag'), etag);
    const cur = await app.request('GET', '/api/v1/reference/currencies');
    t.equal(
      (await app.request('GET', '/api/v1/reference/currencies', { headers: { 'if-none-match': cur.headers.get('etag')! } })).status,
      304,
    );
    await setEnabledLists(db, app.tenant.id, { countries: null });
  });

  t.test('tenants see their own lists', async (t) => {
    const other = await app.newTenant({ country: 'SI' });
    await setEnabledLists(db, other.id, { countries: ['SI'], currencies: ['EUR'] });
    t.match((await app.request('GET', '/api/v1/company', { key: other.key })).body, {
      id: other.id,
      enabledCountries: ['SI'],
      enabledCurrencies: ['EUR'],
    });
    t.match((await app.request('GET', '/api/v1/company')).body, { enabledCountries: null, enabledCurrencies: null });
    t.equal(byCode((await app.request('GET', '/api/v1/reference/countries', { key: other.key })).body.items, 'HR')?.enabled, false);
    t.equal(byCode((await app.request('GET', '/api/v1/reference/countries')).body.items, 'HR')?.enabled, true);
  });

  t.test('the OpenAPI document names the schemas, with examples', async (t) => {
    const schemas = (await app.request('GET', '/api-reference/openapi.json', { key: null })).body.components.schemas;
    for (const name of ['ReferenceCountry', 'ReferenceCurrency', 'ReferenceCountryList', 'ReferenceCurrencyList', 'Company']) {
      t.ok(schemas[name]?.examples?.length, `${name} with an example`);
    }
    t.ok(schemas.Company.properties.enabledCountries);
  });
});
