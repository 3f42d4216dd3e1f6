// The exchange-rate contract: provider by tenant country, official rate → provider source, a
// manual rate only when the provider publishes none, EXCHANGE_RATE_UNAVAILABLE keyed by the field,
// and the amount in the base currency computed exactly in the provider's direction.
import t from 'tap';
import { DomainError } from '../../src/domain/errors.js';
import { EXCHANGE_RATE_UNAVAILABLE, resolveConversion } from '../../src/rates/conversion.js';
import { importRatesFile } from '../../src/rates/import-command.js';
import { PROVIDERS, providerForCountry } from '../../src/rates/providers.js';
import { openTestDatabase } from '../helpers/db.js';
import { CNB_2023_11_13, CNB_2023_11_16, ECB_HIST, HNB_RANGE, fixturePath } from './fixture-files.js';

const { db } = await openTestDatabase(t);
await importRatesFile(db, 'ECB', fixturePath(ECB_HIST));
await importRatesFile(db, 'HNB', fixturePath(HNB_RANGE));
await importRatesFile(db, 'CNB', fixturePath(CNB_2023_11_13));
await importRatesFile(db, 'CNB', fixturePath(CNB_2023_11_16));

const FIELD = 'expenses[0].manualExchangeRate';

t.test('provider by tenant country', async (t) => {
  t.equal(providerForCountry('HR'), PROVIDERS.HNB);
  t.equal(providerForCountry('SI'), PROVIDERS.ECB);
  t.equal(providerForCountry('SK'), PROVIDERS.ECB);
  t.equal(providerForCountry('cz'), PROVIDERS.CNB);
  t.same([PROVIDERS.HNB.baseCurrency, PROVIDERS.ECB.baseCurrency, PROVIDERS.CNB.baseCurrency], ['EUR', 'EUR', 'CZK']);
  t.same(
    [PROVIDERS.HNB.direction, PROVIDERS.ECB.direction, PROVIDERS.CNB.direction],
    ['ForeignPerBase', 'ForeignPerBase', 'BasePerForeign'],
  );
  t.throws(() => providerForCountry('AT'), RangeError);
});

t.test('an official rate is used, with the provider as source', async (t) => {
  const hr = await resolveConversion(db, { country: 'HR', currency: 'USD', date: '2025-04-14', field: FIELD });
  t.match(hr, { rate: '1.1346', units: 1, direction: 'ForeignPerBase', baseCurrency: 'EUR', source: 'HNB', rateDate: '2025-04-14' });
  t.equal(hr.amountInBase('100').toFixed(2), '88.14', '100 USD / 1.1346 = 88.1368 EUR');
  t.equal(hr.amountInBase(1234.56).toFixed(2), '1088.10', '1234.56 / 1.1346 = 1088.1032 EUR');

  const hrSunday = await resolveConversion(db, { country: 'HR', currency: 'USD', date: '2025-04-13', field: FIELD });
  t.match(hrSunday, { rate: '1.1082', source: 'HNB', rateDate: '2025-04-11' }, 'weekend: Friday list');
  t.equal(hrSunday.amountInBase('250.00').toFixed(2), '225.59', '250 / 1.1082 = 225.5911');

  const sk = await resolveConversion(db, { country: 'SK', currency: 'GBP', date: '2025-04-21', field: FIELD });
  t.match(sk, { rate: '0.85873', source: 'ECB', rateDate: '2025-04-17' }, 'Easter Monday: Thursday ECB rate');
  t.equal(sk.amountInBase('100').toFixed(2), '116.45', '100 GBP / 0.85873 = 116.4510 EUR');

  const si = await resolveConversion(db, { country: 'SI', currency: 'HUF', date: '2025-04-11', field: FIELD });
  t.equal(si.amountInBase('40890').toFixed(2), '100.00', '40890 HUF / 408.90 = 100 EUR exactly');

  const cz = await resolveConversion(db, { country: 'CZ', currency: 'HUF', date: '2023-11-18', field: FIELD });
  t.match(cz, { rate: '6.498', units: 100, direction: 'BasePerForeign', baseCurrency: 'CZK', source: 'CNB', rateDate: '2023-11-16' });
  t.equal(cz.amountInBase('25000').toFixed(2), '1624.50', '25000 HUF × 6.498 / 100 = 1624.5 CZK');
  const jpy = await resolveConversion(db, { country: 'CZ', currency: 'JPY', date: '2023-11-13', field: FIELD });
  t.equal(jpy.amountInBase('12345').toFixed(2), '1874.71', '12345 JPY × 15.186 / 100 = 1874.7117 CZK');
  const eur = await resolveConversion(db, { country: 'CZ', currency: 'EUR', date: '2023-11-13', field: FIELD });
  t.equal(eur.amountInBase('123.45').toFixed(2), '3035.64', '123.45 EUR × 24.59 = 3035.6355 CZK');
  t.equal(eur.amountInBase('0.02').toFixed(2), '0.49', '0.02 × 24.59 = 0.4918');
});

t.test('the base currency: identity, source null', async (t) => {
  const c = await resolveConversion(db, { country: 'HR', currency: 'EUR', date: '2031-01-01', field: FIELD });
  t.match(c, { rate: '1', units: 1, source: null, rateDate: null, baseCurrency: 'EUR' });
  t.equal(c.amountInBase('12.345').toFixed(2), '12.35', 'still rounded by the money rule');
  const czk = await resolveConversion(db, { country: 'CZ', currency: 'CZK', date: '2031-01-01', field: FIELD });
  t.equal(czk.source, null);
  t.equal(czk.amountInBase('100').toFixed(2), '100.00');
});

t.test('a manual rate while an official rate exists: 400 EXCHANGE_RATE_UNAVAILABLE keyed by the field', async (t) => {
  const err = await resolveConversion(db, { country: 'HR', currency: 'USD', date: '2025-04-14', manualRate: 1.2, field: FIELD }).catch(
    (e: unknown) => e,
  );
  t.type(err, DomainError);
  const e = err as DomainError;
  t.equal(e.code, EXCHANGE_RATE_UNAVAILABLE);
  t.equal(e.status, 400);
  t.same(Object.keys(e.errors ?? {}), [FIELD]);
  t.match(
    e.errors?.[FIELD]?.[0],
    /HNB publishes a USD rate for 2025-04-14 .*manual rate is honoured only when the provider publishes none/,
  );
  await t.rejects(
    resolveConversion(db, { country: 'CZ', currency: 'USD', date: '2023-11-19', manualRate: '22.5', field: 'manualAdvanceExchangeRate' }),
    {
      code: EXCHANGE_RATE_UNAVAILABLE,
      status: 400,
      errors: { manualAdvanceExchangeRate: [/CNB publishes a USD rate for 2023-11-19 \(list of 2023-11-16\)/] },
    },
    'also when the official rate comes from the fallback',
  );
  await t.rejects(
    resolveConversion(db, { country: 'SK', currency: 'EUR', date: '2025-04-14', manualRate: 1, field: FIELD }),
    {
      code: EXCHANGE_RATE_UNAVAILABLE,
      errors: { [FIELD]: [/EUR is the base currency of ECB/] },
    },
    'the base currency always has a rate',
  );
});

t.test('no official rate and a manual rate: the manual rate, source MANUAL, in the provider direction', async (t) => {
  const hr = await resolveConversion(db, { country: 'HR', currency: 'RSD', date: '2025-04-14', manualRate: 117.2, field: FIELD });
  t.match(hr, { rate: '117.2', units: 1, direction: 'ForeignPerBase', baseCurrency: 'EUR', source: 'MANUAL', rateDate: null });
  t.equal(hr.amountInBase('1000').toFixed(2), '8.53', '1000 RSD / 117.2 = 8.5324 EUR');
  const cz = await resolveConversion(db, { country: 'CZ', currency: 'RSD', date: '2023-11-13', manualRate: '0.2133', field: FIELD });
  t.match(cz, { rate: '0.2133', direction: 'BasePerForeign', source: 'MANUAL' });
  t.equal(cz.amountInBase('1000').toFixed(2), '213.30', '1000 RSD × 0.2133 = 213.3 CZK');
  const stale = await resolveConversion(db, { country: 'SI', currency: 'USD', date: '2025-04-25', manualRate: 1.15, field: FIELD });
  t.equal(stale.source, 'MANUAL', 'beyond the 7-day fallback the provider publishes none');
  t.equal(stale.amountInBase('115').toFixed(2), '100.00');
});

t.test('neither: 400 EXCHANGE_RATE_UNAVAILABLE keyed by the field', async (t) => {
  await t.rejects(resolveConversion(db, { country: 'HR', currency: 'RSD', date: '2025-04-14', field: FIELD }), {
    code: EXCHANGE_RATE_UNAVAILABLE,
    status: 400,
    errors: { [FIELD]: [/HNB publishes no RSD rate for 2025-04-14 or the 7 days before; send a manual exchange rate/] },
  });
  await t.rejects(
    resolveConversion(db, { country: 'SK', currency: 'USD', date: '2025-04-25', manualRate: null, field: 'advancePayment' }),
    {
      code: EXCHANGE_RATE_UNAVAILABLE,
      errors: { advancePayment: [/ECB publishes no USD rate for 2025-04-25/] },
    },
    'a null manual rate counts as none',
  );
});

t.test('an unusable manual rate is a validation error on the field', async (t) => {
  for (const manualRate of [0, -1, 'abc', '1,5', Number.NaN]) {
    await t.rejects(
      resolveConversion(db, { country: 'HR', currency: 'RSD', date: '2025-04-14', manualRate, field: FIELD }),
      {
        code: 'VALIDATION_FAILED',
        status: 400,
        errors: { [FIELD]: ['must be a positive decimal number'] },
      },
      `manualRate ${String(manualRate)}`,
    );
  }
});
