// Which rate applies on a date: the publication of the day, else the latest earlier one within
// 7 days (weekends, Easter, a Czech holiday), else none; the base currency is the identity. And
// the reference list for GET /api/v1/reference/exchange-rates.
import t from 'tap';
import { importRatesFile } from '../../src/rates/import-command.js';
import { findRate } from '../../src/rates/lookup.js';
import { listRates } from '../../src/rates/query.js';
import { openTestDatabase } from '../helpers/db.js';
import { CNB_2023_11_13, CNB_2023_11_16, ECB_HIST, HNB_RANGE, fixturePath } from './fixture-files.js';

const { db } = await openTestDatabase(t);
await importRatesFile(db, 'ECB', fixturePath(ECB_HIST)); // 2025-04-09 … 2025-04-17, no 12/13
await importRatesFile(db, 'HNB', fixturePath(HNB_RANGE)); // lists 2025-04-11 … 2025-04-17, no 12/13
await importRatesFile(db, 'CNB', fixturePath(CNB_2023_11_13));
await importRatesFile(db, 'CNB', fixturePath(CNB_2023_11_16));

const applied = async (provider: 'HNB' | 'ECB' | 'CNB', currency: string, date: string): Promise<string | null> => {
  const r = await findRate(db, { provider, currency, date });
  return r === null ? null : `${r.date} ${r.rate}`;
};

t.test('the publication of the day itself', async (t) => {
  t.same(await findRate(db, { provider: 'ECB', currency: 'USD', date: '2025-04-14' }), {
    source: 'ECB',
    date: '2025-04-14',
    currency: 'USD',
    rate: '1.1377',
    units: 1,
    baseCurrency: 'EUR',
    direction: 'ForeignPerBase',
  });
  t.same(await findRate(db, { provider: 'CNB', currency: 'HUF', date: '2023-11-13' }), {
    source: 'CNB',
    date: '2023-11-13',
    currency: 'HUF',
    rate: '6.514',
    units: 100,
    baseCurrency: 'CZK',
    direction: 'BasePerForeign',
  });
  t.equal(await applied('HNB', 'usd', '2025-04-14'), '2025-04-14 1.1346', 'currency codes are case-insensitive');
});

t.test('weekend and holidays fall back to the latest earlier publication', async (t) => {
  t.equal(await applied('ECB', 'USD', '2025-04-12'), '2025-04-11 1.1346', 'Saturday');
  t.equal(await applied('ECB', 'USD', '2025-04-13'), '2025-04-11 1.1346', 'Sunday');
  t.equal(await applied('HNB', 'USD', '2025-04-13'), '2025-04-11 1.1082', 'HNB Sunday: the Friday list (ECB of Thursday)');
  t.equal(await applied('ECB', 'USD', '2025-04-18'), '2025-04-17 1.136', 'Good Friday');
  t.equal(await applied('ECB', 'USD', '2025-04-21'), '2025-04-17 1.136', 'Easter Monday');
  t.equal(await applied('CNB', 'USD', '2023-11-17'), '2023-11-16 22.547', 'Czech public holiday (17 November)');
  t.equal(await applied('CNB', 'USD', '2023-11-19'), '2023-11-16 22.547', 'the Sunday after it');
  t.equal(await applied('CNB', 'USD', '2023-11-15'), '2023-11-13 23.05', 'a day missing from our data is bridged the same way');
});

t.test('the fallback reaches back 7 days and no further', async (t) => {
  t.equal(await applied('ECB', 'USD', '2025-04-24'), '2025-04-17 1.136', '7 days after the last publication');
  t.equal(await applied('ECB', 'USD', '2025-04-25'), null, '8 days after');
  t.equal(await applied('CNB', 'USD', '2023-11-23'), '2023-11-16 22.547');
  t.equal(await applied('CNB', 'USD', '2023-11-24'), null);
  t.equal(await applied('ECB', 'USD', '2025-04-08'), null, 'before the first publication');
  t.equal(await applied('CNB', 'EUR', '2023-11-12'), null, 'the Sunday before the first CNB fixing held');
  t.equal(await applied('ECB', 'RSD', '2025-04-14'), null, 'a currency the provider does not publish');
  t.equal(await applied('HNB', 'TRY', '2025-04-14'), null, 'ECB lists TRY, HNB does not');
  t.equal(await applied('ECB', 'USD', '2025-04-11'), '2025-04-11 1.1346', 'a later publication is never used for an earlier date');
});

t.test('the base currency converts at 1 with no source', async (t) => {
  t.same(await findRate(db, { provider: 'HNB', currency: 'EUR', date: '2030-01-01' }), {
    source: null,
    date: '2030-01-01',
    currency: 'EUR',
    rate: '1',
    units: 1,
    baseCurrency: 'EUR',
    direction: 'ForeignPerBase',
  });
  t.same(await findRate(db, { provider: 'CNB', currency: 'czk', date: '2023-11-18' }), {
    source: null,
    date: '2023-11-18',
    currency: 'CZK',
    rate: '1',
    units: 1,
    baseCurrency: 'CZK',
    direction: 'BasePerForeign',
  });
  t.equal(await applied('CNB', 'EUR', '2023-11-18'), '2023-11-16 24.45', 'EUR is foreign for CNB');
});

t.test('a malformed date is a programming error, not a missing rate', async (t) => {
  await t.rejects(findRate(db, { provider: 'ECB', currency: 'USD', date: '14.04.2025' }), RangeError);
  await t.rejects(findRate(db, { provider: 'ECB', currency: 'USD', date: '2025-02-30' }), RangeError);
});

t.test('listRates: every currency as of a date, with provenance fields', async (t) => {
  const sunday = await listRates(db, { provider: 'ECB', date: '2025-04-13' });
  t.equal(sunday.length, 30);
  t.ok(sunday.every((r) => r.date === '2025-04-11' && r.source === 'ECB' && r.baseCurrency === 'EUR' && r.direction === 'ForeignPerBase'));
  t.same(
    sunday.map((r) => r.currency),
    [...sunday.map((r) => r.currency)].sort(),
    'ordered by currency',
  );
  t.same(await listRates(db, { provider: 'CNB', date: '2023-11-18', currency: 'huf' }), [
    { source: 'CNB', date: '2023-11-16', currency: 'HUF', rate: '6.498', units: 100, baseCurrency: 'CZK', direction: 'BasePerForeign' },
  ]);
  t.same(await listRates(db, { provider: 'HNB', date: '2025-04-15', currency: 'USD' }), [
    { source: 'HNB', date: '2025-04-15', currency: 'USD', rate: '1.1377', units: 1, baseCurrency: 'EUR', direction: 'ForeignPerBase' },
  ]);
  t.same(await listRates(db, { provider: 'ECB', date: '2025-04-25' }), [], 'nothing within 7 days');
  t.same(await listRates(db, { provider: 'ECB', date: '2025-04-14', currency: 'RSD' }), []);
  for (const r of await listRates(db, { provider: 'HNB', date: '2025-04-16' })) {
    const one = await findRate(db, { provider: 'HNB', currency: r.currency, date: '2025-04-16' });
    t.same(one, r, `the list agrees with findRate for ${r.currency}`);
  }
});
