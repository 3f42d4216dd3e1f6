// enabledListErrors: the company's enabled countries and currencies applied to an entry draft.
import t from 'tap';
import { enabledListErrors } from '../../../src/domain/travel-entries/enabled-lists.js';
import { draft, expense, perDiem } from './fixtures.js';

const ALL = { countries: null, currencies: null };

t.test('null lists allow everything', async (t) => {
  t.same(enabledListErrors(draft({ destinationCountryCode: 'XK', currencyCode: 'JPY' }), ALL), {});
});

t.test('codes inside the lists pass, case-insensitively', async (t) => {
  const d = draft({
    destinationCountryCode: 'at',
    currencyCode: 'EUR',
    expenses: [expense({ currencyCode: 'usd' })],
    perDiems: [perDiem({ countryCode: 'AT', currencyCode: 'EUR' })],
  });
  t.same(enabledListErrors(d, { countries: ['HR', 'AT'], currencies: ['EUR', 'USD'] }), {});
});

t.test('every field outside the lists is keyed by its path', async (t) => {
  const d = draft({
    destinationCountryCode: 'DE',
    currencyCode: 'CHF',
    expenses: [expense({ currencyCode: 'EUR' }), expense({ currencyCode: 'GBP' })],
    perDiems: [perDiem({ countryCode: 'AT', currencyCode: 'EUR' }), perDiem({ countryCode: 'RS', currencyCode: 'RSD' })],
  });
  const errors = enabledListErrors(d, { countries: ['HR', 'AT'], currencies: ['EUR'] });
  t.same(Object.keys(errors).sort(), [
    'currencyCode',
    'destinationCountryCode',
    'expenses[1].currencyCode',
    'perDiems[1].countryCode',
    'perDiems[1].currencyCode',
  ]);
  t.match(errors.destinationCountryCode?.[0], /country DE.*enabled: AT, HR/);
  t.match(errors['expenses[1].currencyCode']?.[0], /currency GBP.*enabled: EUR/);
});

t.test('only the list that is set is applied', async (t) => {
  const d = draft({ destinationCountryCode: 'DE', currencyCode: 'CHF', expenses: [expense({ currencyCode: 'GBP' })], perDiems: [] });
  t.same(Object.keys(enabledListErrors(d, { countries: null, currencies: ['EUR'] })).sort(), ['currencyCode', 'expenses[0].currencyCode']);
  t.same(Object.keys(enabledListErrors(d, { countries: ['HR'], currencies: null })), ['destinationCountryCode']);
});

t.test('absent optional codes are not checked (a derived destination country, a per diem without a currency)', async (t) => {
  const { destinationCountryCode: _derived, ...rest } = draft();
  const d = { ...rest, perDiems: [perDiem({ countryCode: 'HR', currencyCode: null })], expenses: null };
  t.same(enabledListErrors(d, { countries: ['HR'], currencies: ['EUR'] }), {});
});

t.test('an empty list enables nothing', async (t) => {
  const errors = enabledListErrors(draft({ destinationCountryCode: 'HR', expenses: [], perDiems: [] }), { countries: [], currencies: [] });
  t.same(Object.keys(errors).sort(), ['currencyCode', 'destinationCountryCode']);
  t.match(errors.currencyCode?.[0], /enabled: none/);
});
