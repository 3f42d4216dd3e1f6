// The base-currency amount a conversion produces is bounded like every amount a request carries
// (outside probe, session 21): a manual rate of 0.0000000001 on 1,000,000,000 HRK booked 10^19 EUR,
// and a rate of 1,000,000 turned 100 HRK into 0.00 EUR. Both are a 400 keyed by the manual rate the
// client sent. A refused amount is reported once, on the amount: never again on the base-currency
// field, which only responses carry.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';
import { domesticTrip } from '../../../helpers/domestic-trip.js';

t.test('converted amounts', async (t) => {
  const app = await startTestApp(t);
  const employee = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Kuna' } })).body.id as string;
  const create = (extra: Record<string, unknown>) => app.request('POST', '/api/v1/travel-entries', { body: domesticTrip(employee, extra) });
  const expense = (amount: unknown, manualExchangeRate: unknown) => ({
    expenses: [{ date: '2025-04-14', category: 'Taxi', amount, currencyCode: 'HRK', manualExchangeRate }],
  });
  const advance = (advancePayment: unknown, manualAdvanceExchangeRate: unknown) => ({
    currencyCode: 'HRK',
    advancePayment,
    advancePaymentDate: '2025-04-14',
    manualAdvanceExchangeRate,
  });

  t.test('beyond the amount bound: keyed by the manual rate', async (t) => {
    const e = await create(expense('1000000000', '0.0000000001'));
    t.same([e.status, Object.keys(e.body.errors ?? {})], [400, ['expenses[0].manualExchangeRate']], e.text);
    t.match(e.body.errors['expenses[0].manualExchangeRate'][0], /10000000000000000000.*1000000000/);
    const a = await create(advance('1000000000', '0.0000000001'));
    t.same([a.status, Object.keys(a.body.errors ?? {})], [400, ['manualAdvanceExchangeRate']], a.text);
  });

  t.test('a positive amount a manual rate makes 0.00: keyed by the rate', async (t) => {
    const e = await create(expense(100, 1_000_000));
    t.same([e.status, Object.keys(e.body.errors ?? {})], [400, ['expenses[0].manualExchangeRate']], e.text);
    const a = await create(advance(100, 1_000_000));
    t.same([a.status, Object.keys(a.body.errors ?? {})], [400, ['manualAdvanceExchangeRate']], a.text);
  });

  t.test('a refused amount converted at a manual rate is named once, by the amount', async (t) => {
    const e = await create(expense(-5, '7.5345'));
    t.same([e.status, Object.keys(e.body.errors ?? {})], [400, ['expenses[0].amount']], e.text);
    const a = await create(advance(-1, '7.5345'));
    t.same([a.status, Object.keys(a.body.errors ?? {})], [400, ['advancePayment']], a.text);
  });

  t.test('a refused amount is named once, by the field sent', async (t) => {
    const e = await create({
      expenses: [{ date: '2025-04-14', category: 'Taxi', amount: -5, currencyCode: 'EUR' }],
      advancePayment: -1,
    });
    t.equal(e.status, 400, e.text);
    t.same(Object.keys(e.body.errors).sort(), ['advancePayment', 'expenses[0].amount'], e.text);
  });

  t.test('sane manual rates and the bound itself still pass', async (t) => {
    const e = await create({ ...expense(100, '7.5345'), ...advance('1000', '7.5345') });
    t.equal(e.status, 201, e.text);
    t.same([e.body.expenses[0].amountInBaseCurrency, e.body.advancePaymentInBaseCurrency], [13.27, 132.72]);
    const big = await create(expense('1000000000', 1));
    t.same([big.status, big.body.expenses?.[0]?.amountInBaseCurrency], [201, 1_000_000_000], big.text);
  });
});

t.test('a per diem converted at a manual rate is bounded the same way', async (t) => {
  const app = await startTestApp(t, { country: 'HR' });
  const employee = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ivo', lastName: 'Dolar' } })).body.id as string;
  const entry = (await app.request('POST', '/api/v1/travel-entries', { body: domesticTrip(employee) })).body.id as string;
  // HR pays a trip to Angola in USD; HNB publishes no rates for 2024 here, so the rate is the client's.
  const add = (manualExchangeRate: string) =>
    app.request('POST', `/api/v1/travel-entries/${entry}/per-diems`, {
      body: {
        countryCode: 'AO',
        departureTime: '2024-06-03T12:00:00Z',
        arrivalTime: '2024-06-05T20:00:00Z',
        manualExchangeRate,
      },
    });
  const huge = await add('0.0000000001');
  t.same([huge.status, huge.body.code, Object.keys(huge.body.errors ?? {})], [400, 'VALIDATION_FAILED', ['manualExchangeRate']], huge.text);
  t.match(huge.body.errors?.manualExchangeRate?.[0], /more than the largest amount accepted/);
  const zero = await add('1000000');
  t.same([zero.status, zero.body.code, Object.keys(zero.body.errors ?? {})], [400, 'VALIDATION_FAILED', ['manualExchangeRate']], zero.text);
  t.match(zero.body.errors?.manualExchangeRate?.[0], /rounds to 0\.00/);
  // Last: the entry then holds these hours, and another row over them would be refused for that.
  const fine = await add('1.08');
  t.equal(fine.status, 201, fine.text);
});
