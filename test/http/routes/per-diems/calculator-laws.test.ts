// The stateless per-diem calculator over real HTTP, one tenant per law (HR, SI, CZ, SK): a domestic
// and a foreign itinerary, meals keyed by the rows of a first call, band edges, DST days, the rate
// and exchange-rate dates each law sets. Every amount is worked out by hand from the law
// (../shared/research/perdiem-verified.md) in the comment beside it. Nothing is stored.
import t, { type Test } from 'tap';
import { importPerDiemRateTable } from '../../../../src/application/per-diems/rate-import.js';
import { startTestApp } from '../../../helpers/app.js';
import { amounts, calculate, figures, importHnb, importRateFixtures, stop, storeHead } from './helpers.js';

const ROW_FIELDS = [
  'amount',
  'amountInBaseCurrency',
  'arrivalTime',
  'arrivalTimeUtc',
  'breakfastsProvided',
  'countryCode',
  'currencyCode',
  'departureTime',
  'departureTimeUtc',
  'dinnersProvided',
  'exchangeRate',
  'exchangeRateDate',
  'exchangeRateSource',
  'hours',
  'lunchesProvided',
  'mealReduction',
  'mealsProvided',
  'rate',
  'rule',
  'units',
];

t.test('per-diem calculator by law', async (t) => {
  const app = await startTestApp(t);
  await importRateFixtures(app, { hnb: false }); // HNB comes in the HR test, after the call without it
  const si = await app.newTenant({ country: 'SI' });
  const cz = await app.newTenant({ country: 'CZ' });
  const sk = await app.newTenant({ country: 'SK' });
  const headBefore = await storeHead(app);

  /** The calculator's answer for a law's tenant; fails the test unless it is 200. */
  const ok = async (t: Test, body: unknown, key?: string) => {
    const res = await calculate(app, body, key);
    t.equal(res.status, 200, res.status === 200 ? 'calculated' : res.text);
    return res.body;
  };
  /** The total in the base currency of a two-stop trip within the law's own country. */
  const domesticTotal = async (t: Test, country: string, from: string, to: string, key?: string) =>
    (await ok(t, { stops: [stop(country, from), stop(country, to)] }, key)).totals.inBaseCurrency;

  t.test('HR: 24-hour blocks, foreign hours first, 30 % a meal, HNB on the day of the row', async (t) => {
    // Domestic: 34.5 h = one block + 10.5 h (more than 8, less than 12: half) = 1.5 × 30 EUR.
    const domestic = await ok(t, { stops: [stop('HR', '2025-04-14T07:00'), stop('HR', '2025-04-15T17:30')] });
    t.match(domestic, { law: 'HR', baseCurrency: 'EUR', totals: { byCurrency: { EUR: 45 }, inBaseCurrency: 45 } });
    t.same(domestic.rateTables, { law: 'HR', revision: null }, 'the shipped tables');
    t.same(domestic.notices, [], 'nothing to review');
    const long = await ok(t, { stops: [stop('HR', '2025-06-01T07:00'), stop('HR', '2025-07-02T07:00')] });
    t.same(
      long.notices.map((n: { code: string }) => n.code),
      ['TRIP_OVER_30_DAYS'],
      'a trip of 31 days is computed and flagged',
    );
    t.same(Object.keys(domestic.perDiems[0]).sort(), ROW_FIELDS, 'every field of a row');
    t.same(figures(domestic.perDiems[0]), {
      countryCode: 'HR',
      departureTime: '2025-04-14T07:00',
      arrivalTime: '2025-04-15T17:30',
      hours: 34.5,
      units: 1.5,
      rate: 30,
      currencyCode: 'EUR',
      mealReduction: 0,
      amount: 45,
      amountInBaseCurrency: 45,
    });
    t.match(domestic.perDiems[0], {
      departureTimeUtc: '2025-04-14T05:00:00Z',
      arrivalTimeUtc: '2025-04-15T15:30:00Z',
      exchangeRate: null,
      exchangeRateSource: null,
    });

    // Band edges: exactly 8 h pays nothing, a minute more a half; 11:59 a half, exactly 12 h a full one.
    t.same(
      [
        await domesticTotal(t, 'HR', '2025-04-14T07:00', '2025-04-14T15:00'),
        await domesticTotal(t, 'HR', '2025-04-14T07:00', '2025-04-14T15:01'),
        await domesticTotal(t, 'HR', '2025-04-14T07:00', '2025-04-14T18:59'),
        await domesticTotal(t, 'HR', '2025-04-14T07:00', '2025-04-14T19:00'),
      ],
      [0, 15, 15, 30],
    );
    // DST: 20:00 to 08:00 over the spring change is 11 real hours (half); over the autumn change
    // 20:00 to 07:00 is 12 real hours (full).
    const spring = await ok(t, { stops: [stop('HR', '2025-03-29T20:00'), stop('HR', '2025-03-30T08:00')] });
    const autumn = await ok(t, { stops: [stop('HR', '2025-10-25T20:00'), stop('HR', '2025-10-26T07:00')] });
    t.same([spring.perDiems[0].hours, spring.perDiems[0].amount, autumn.perDiems[0].hours, autumn.perDiems[0].amount], [11, 15, 12, 30]);

    // Foreign (the teb.hr example): 38.5 h in all, 28 h of it in Austria. Abroad: one block + 4 h =
    // 1 per diem at 90 EUR (NN 16/2024). Whole trip: one block + 14.5 h = 2, so 2 − 1 = 1 domestic
    // per diem (30 EUR), on the last domestic leg.
    const itinerary = {
      stops: [
        stop('HR', '2025-04-14T06:00'),
        stop('AT', '2025-04-14T08:00'),
        stop('HR', '2025-04-15T12:00'),
        stop('HR', '2025-04-15T20:30'),
      ],
    };
    const foreign = await ok(t, itinerary);
    t.same(amounts(foreign), [
      ['HR', '2025-04-14T06:00', 0],
      ['AT', '2025-04-14T08:00', 90],
      ['HR', '2025-04-15T12:00', 30],
    ]);
    t.match(foreign.perDiems[1], { hours: 28, units: 1, rate: 90, currencyCode: 'EUR', arrivalTime: '2025-04-15T12:00' });
    t.same(foreign.totals, { byCurrency: { EUR: 120 }, inBaseCurrency: 120 });

    // Meals keyed by the rows of that answer: a lunch in Austria cuts 30 % of 90 (breakfast cuts
    // nothing), a dinner on the domestic row 30 % of 30.
    const [, at, home] = foreign.perDiems;
    const withMeals = await ok(t, {
      ...itinerary,
      meals: [
        { countryCode: at.countryCode, departureTime: at.departureTime, breakfastsProvided: 1, lunchesProvided: 1 },
        { countryCode: home.countryCode, departureTime: home.departureTime, dinnersProvided: 1 },
      ],
    });
    t.same(
      withMeals.perDiems.map((r: any) => [
        r.breakfastsProvided,
        r.lunchesProvided,
        r.dinnersProvided,
        r.mealsProvided,
        r.mealReduction,
        r.amount,
      ]),
      [
        [0, 0, 0, 0, 0, 0],
        [1, 1, 0, 1, 27, 63],
        [0, 0, 1, 1, 9, 21],
      ],
    );
    t.same(withMeals.totals, { byCurrency: { EUR: 84 }, inBaseCurrency: 84 });

    // A lunch on a half per diem cuts 30 % of the half: 15 × 0.7 = 10.50.
    const half = { stops: [stop('HR', '2025-04-14T07:00'), stop('HR', '2025-04-14T17:00')] };
    const halfRow = (await ok(t, half)).perDiems[0];
    const halfWithLunch = await ok(t, {
      ...half,
      meals: [{ countryCode: halfRow.countryCode, departureTime: halfRow.departureTime, lunchesProvided: 1 }],
    });
    t.match(halfWithLunch.perDiems[0], { units: 0.5, mealReduction: 4.5, amount: 10.5 });

    // Stays of 12 h or less abroad count with the next (or, on the way back, the last) stay of more
    // than 12 h: 4 h in Slovenia each way take Austria's rate. Abroad 42 h = 2 per diems; the trip
    // 44 h = 2, so none at home. Slovenia is not in our copy of NN 16/2024, and is not needed.
    const transit = await ok(t, {
      stops: [
        stop('HR', '2025-04-14T06:00'),
        stop('SI', '2025-04-14T08:00'),
        stop('AT', '2025-04-14T12:00'),
        stop('SI', '2025-04-15T22:00'),
        stop('HR', '2025-04-16T02:00'),
      ],
    });
    t.same(amounts(transit), [
      ['HR', '2025-04-14T06:00', 0],
      ['SI', '2025-04-14T08:00', 0],
      ['AT', '2025-04-14T12:00', 180],
      ['SI', '2025-04-15T22:00', 0],
    ]);
    t.same(
      transit.perDiems.map((r: any) => [r.units, r.rate]),
      [
        [0, 30],
        [0, 90],
        [2, 90],
        [0, 90],
      ],
    );

    // The foreign table changed on 8 Feb 2024 (NN 16/2024): Austria 70 EUR the day before, 90 EUR
    // from that day. 13 h abroad on a 14-hour trip: one foreign per diem, no domestic one.
    const dayTrip = (date: string) => ({
      stops: [stop('HR', `${date}T06:00`), stop('AT', `${date}T07:00`), stop('HR', `${date}T20:00`)],
    });
    t.same(
      [(await ok(t, dayTrip('2024-02-07'))).totals.inBaseCurrency, (await ok(t, dayTrip('2024-02-08'))).totals.inBaseCurrency],
      [70, 90],
    );
  });

  t.test('HR: a 24-hour block that starts after the table changed is paid at the new rate', async (t) => {
    // 72 h in Austria from 6 Feb 2024 08:00: blocks from the 6th and the 7th at 70 EUR (NN 8/2006),
    // the block from 8 Feb 08:00 at 90 EUR (NN 16/2024) = 230 EUR.
    const res = await ok(t, {
      stops: [stop('HR', '2024-02-06T07:00'), stop('AT', '2024-02-06T08:00'), stop('HR', '2024-02-09T08:00')],
    });
    t.equal(res.totals.inBaseCurrency, 230, '70 + 70 + 90 EUR');
  });

  t.test('HR: a USD destination needs the HNB rate of the row’s day', async (t) => {
    // Australia (NN 16/2024: 100 USD). Zagreb 08:00 (06:00Z), Sydney 18:00 (08:00Z), Zagreb 16 Apr
    // 12:00 (10:00Z): 50 h abroad = 2 blocks + 2 h = 2 per diems = 200 USD; the trip's 52 h also
    // give 2, so none at home.
    const body = {
      stops: [stop('HR', '2025-04-14T08:00'), stop('AU', '2025-04-14T18:00', 'Australia/Sydney'), stop('HR', '2025-04-16T12:00')],
    };
    const before = await calculate(app, body);
    t.same(
      [before.status, before.headers.get('content-type'), before.body.code, Object.keys(before.body.errors)],
      [400, 'application/problem+json; charset=utf-8', 'EXCHANGE_RATE_UNAVAILABLE', ['stops[1].countryCode']],
    );
    await importHnb(app);
    const res = await ok(t, body);
    // 200 USD / 1.1346 (HNB list applied on 14 Apr 2025) = 176.2736… → 176.27 EUR.
    t.same(figures(res.perDiems[1]), {
      countryCode: 'AU',
      departureTime: '2025-04-14T18:00',
      arrivalTime: '2025-04-16T12:00',
      hours: 50,
      units: 2,
      rate: 100,
      currencyCode: 'USD',
      mealReduction: 0,
      amount: 200,
      amountInBaseCurrency: 176.27,
    });
    t.match(res.perDiems[1], {
      departureTimeUtc: '2025-04-14T08:00:00Z',
      exchangeRate: 1.1346,
      exchangeRateDate: '2025-04-14',
      exchangeRateSource: 'HNB',
    });
    t.same(res.totals, { byCurrency: { USD: 200 }, inBaseCurrency: 176.27 });
  });

  t.test('SI: bands per country, the trip cap, cuts by band, ECB on the last day', async (t) => {
    // Domestic: 34 h = one per diem (27.81) + 10 h (over 8 to 12: 13.88) = 41.69 EUR.
    const domestic = await ok(t, { stops: [stop('SI', '2025-04-14T07:00'), stop('SI', '2025-04-15T17:00')] }, si.key);
    t.match(domestic, { law: 'SI', baseCurrency: 'EUR', totals: { byCurrency: { EUR: 41.69 }, inBaseCurrency: 41.69 } });
    t.match(domestic.perDiems[0], { hours: 34, units: 2, rate: 27.81, amount: 41.69 });
    // "nad X do Y": 6 h nothing, 6:01 9.69, 8 h 9.69, 8:01 13.88, 12 h 13.88, 12:01 27.81.
    const edges = [];
    for (const to of ['13:00', '13:01', '15:00', '15:01', '19:00', '19:01'])
      edges.push(await domesticTotal(t, 'SI', '2025-04-14T07:00', `2025-04-14T${to}`, si.key));
    t.same(edges, [0, 9.69, 9.69, 13.88, 13.88, 27.81]);

    // Foreign: 2 h at home each way (no band), 34 h in Austria = one per diem (55) + 10 h (over 8 to
    // 14: 75 % = 41.25) = 96.25 EUR; the trip's 38 h allow 2 per diems.
    const itinerary = {
      stops: [
        stop('SI', '2025-04-14T06:00'),
        stop('AT', '2025-04-14T08:00'),
        stop('SI', '2025-04-15T18:00'),
        stop('SI', '2025-04-15T20:00'),
      ],
    };
    const foreign = await ok(t, itinerary, si.key);
    t.same(amounts(foreign), [
      ['SI', '2025-04-14T06:00', 0],
      ['AT', '2025-04-14T08:00', 96.25],
      ['SI', '2025-04-15T18:00', 0],
    ]);
    t.match(foreign.perDiems[1], { hours: 34, units: 1.75, rate: 55, currencyCode: 'EUR' });
    // A breakfast and a lunch fall on the whole per diem: 10 % + 35 % of 55 = 24.75; 71.50 is left.
    const at = foreign.perDiems[1];
    const withMeals = await ok(
      t,
      {
        ...itinerary,
        meals: [{ countryCode: at.countryCode, departureTime: at.departureTime, breakfastsProvided: 1, lunchesProvided: 1 }],
      },
      si.key,
    );
    t.match(withMeals.perDiems[1], { breakfastsProvided: 1, lunchesProvided: 1, mealReduction: 24.75, amount: 71.5 });
    t.same(withMeals.totals, { byCurrency: { EUR: 71.5 }, inBaseCurrency: 71.5 });

    // The cap: 10 h in Austria and 10 h in Italy each earn 75 % (41.25), but the whole trip (22 h)
    // is due one per diem; the later one is dropped.
    const capped = await ok(
      t,
      {
        stops: [
          stop('SI', '2025-04-14T06:00'),
          stop('AT', '2025-04-14T07:00'),
          stop('IT', '2025-04-14T17:00'),
          stop('SI', '2025-04-15T03:00'),
          stop('SI', '2025-04-15T04:00'),
        ],
      },
      si.key,
    );
    t.same(amounts(capped), [
      ['SI', '2025-04-14T06:00', 0],
      ['AT', '2025-04-14T07:00', 41.25],
      ['IT', '2025-04-14T17:00', 0],
      ['SI', '2025-04-15T03:00', 0],
    ]);

    // USD: Japan 100 USD. 5 h at home (nothing), 45 h in Japan = one + 21 h (full) = 200 USD, at the
    // ECB rate of the trip's last day (16 Apr 2025: 1.1355): 176.1338… → 176.13 EUR.
    const japan = await ok(
      t,
      { stops: [stop('SI', '2025-04-14T08:00'), stop('JP', '2025-04-14T20:00'), stop('SI', '2025-04-16T10:00')] },
      si.key,
    );
    t.match(japan.perDiems[1], {
      hours: 45,
      units: 2,
      rate: 100,
      currencyCode: 'USD',
      amount: 200,
      exchangeRate: 1.1355,
      exchangeRateDate: '2025-04-16',
      exchangeRateSource: 'ECB',
      amountInBaseCurrency: 176.13,
    });
    t.same(japan.totals, { byCurrency: { USD: 200 }, inBaseCurrency: 176.13 });
  });

  t.test('CZ: calendar days, the 5-hour rule, the two-day merge, CNB on the advance date', async (t) => {
    // Domestic over three calendar days (2025 amounts 148 / 225 / 353 CZK): 16 h, 24 h, 10 h.
    const domestic = await ok(t, { stops: [stop('CZ', '2025-04-24T08:00'), stop('CZ', '2025-04-26T10:00')] }, cz.key);
    t.match(domestic, { law: 'CZ', baseCurrency: 'CZK', totals: { byCurrency: { CZK: 726 }, inBaseCurrency: 726 } });
    t.same(amounts(domestic), [
      ['CZ', '2025-04-24T08:00', 225],
      ['CZ', '2025-04-25T00:00', 353],
      ['CZ', '2025-04-26T00:00', 148],
    ]);
    t.same(
      domestic.perDiems.map((r: any) => [r.arrivalTime, r.hours]),
      [
        ['2025-04-25T00:00', 16],
        ['2025-04-26T00:00', 24],
        ['2025-04-26T10:00', 10],
      ],
    );
    // "5 až 12 hodin" and "nejdéle 18 hodin" include their upper edges.
    t.same(
      [
        await domesticTotal(t, 'CZ', '2025-04-25T07:00', '2025-04-25T11:59', cz.key),
        await domesticTotal(t, 'CZ', '2025-04-25T07:00', '2025-04-25T12:00', cz.key),
        await domesticTotal(t, 'CZ', '2025-04-25T07:00', '2025-04-25T19:00', cz.key),
        await domesticTotal(t, 'CZ', '2025-04-25T07:00', '2025-04-25T19:01', cz.key),
        await domesticTotal(t, 'CZ', '2025-04-25T05:00', '2025-04-25T23:00', cz.key),
        await domesticTotal(t, 'CZ', '2025-04-25T05:00', '2025-04-25T23:01', cz.key),
      ],
      [0, 148, 148, 225, 225, 353],
    );
    // §163(4): 20:00 to 04:00 is 4 h + 4 h (nothing day by day), 8 h as one: 148 CZK.
    const night = await ok(t, { stops: [stop('CZ', '2025-04-24T20:00'), stop('CZ', '2025-04-25T04:00')] }, cz.key);
    t.same(amounts(night), [
      ['CZ', '2025-04-24T20:00', 148],
      ['CZ', '2025-04-25T00:00', 0],
    ]);
    t.match(night.perDiems[0].rule, /163\(4\)/);

    // Foreign (Germany 45 EUR in 2025): 25 Apr 14 h abroad (2/3 = 30 EUR; 4 h at home earn nothing),
    // 26 Apr 20 h abroad (full 45 EUR; 2 h at home nothing). CNB 25 Apr 2025 (the first day, no
    // advance date): 24.930 CZK/EUR, 747.90 + 1121.85 = 1869.75 CZK.
    const itinerary = {
      stops: [
        stop('CZ', '2025-04-25T06:00'),
        stop('DE', '2025-04-25T10:00'),
        stop('CZ', '2025-04-26T20:00'),
        stop('CZ', '2025-04-26T22:00'),
      ],
    };
    const foreign = await ok(t, itinerary, cz.key);
    t.same(amounts(foreign), [
      ['CZ', '2025-04-25T06:00', 0],
      ['DE', '2025-04-25T10:00', 30],
      ['DE', '2025-04-26T00:00', 45],
      ['CZ', '2025-04-26T20:00', 0],
    ]);
    t.match(foreign.perDiems[1], {
      units: 0.6667,
      rate: 45,
      currencyCode: 'EUR',
      exchangeRate: 24.93,
      exchangeRateDate: '2025-04-25',
      exchangeRateSource: 'CNB',
      amountInBaseCurrency: 747.9,
    });
    t.same(foreign.totals, { byCurrency: { EUR: 75 }, inBaseCurrency: 1869.75 });

    // Meals keyed by the rows: a lunch on the 2/3 day cuts 35 % of 30 (19.50 left), a dinner on the
    // full day 25 % of 45 (33.75 left). In CZK: 486.135 → 486.14 and 841.3875 → 841.39.
    const [, day1, day2] = foreign.perDiems;
    const withMeals = await ok(
      t,
      {
        ...itinerary,
        meals: [
          { countryCode: day1.countryCode, departureTime: day1.departureTime, lunchesProvided: 1 },
          { countryCode: day2.countryCode, departureTime: day2.departureTime, dinnersProvided: 1 },
        ],
      },
      cz.key,
    );
    t.same(
      withMeals.perDiems.map((r: any) => [r.mealReduction, r.amount, r.amountInBaseCurrency]),
      [
        [0, 0, 0],
        [10.5, 19.5, 486.14],
        [11.25, 33.75, 841.39],
        [0, 0, 0],
      ],
    );
    t.same(withMeals.totals, { byCurrency: { EUR: 53.25 }, inBaseCurrency: 1327.53 });

    // §170(3): with 5 h or more at home that day (domestic stravné), the third needs more than 5 h
    // abroad. Exactly 5 h abroad: no foreign stravné, the 10.5 h count as domestic (148 CZK).
    // 5 h 01 abroad: a third of 45 = 15 EUR (373.95 CZK), and 5 h 29 at home: 148 CZK.
    const fiveHours = (back: string) => ({
      stops: [stop('CZ', '2025-04-25T06:00'), stop('DE', '2025-04-25T11:00'), stop('CZ', back), stop('CZ', '2025-04-25T16:30')],
    });
    t.same((await ok(t, fiveHours('2025-04-25T16:00'), cz.key)).totals, { byCurrency: { CZK: 148 }, inBaseCurrency: 148 });
    t.same((await ok(t, fiveHours('2025-04-25T16:01'), cz.key)).totals, {
      byCurrency: { CZK: 148, EUR: 15 },
      inBaseCurrency: 521.95,
    });

    // The exchange-rate date is the advance payment date (§183(2)): a trip in May has no CNB rate
    // of its own first day here, the advance paid on 25 Apr does.
    const may = {
      stops: [
        stop('CZ', '2025-05-05T06:00'),
        stop('DE', '2025-05-05T10:00'),
        stop('CZ', '2025-05-06T20:00'),
        stop('CZ', '2025-05-06T22:00'),
      ],
    };
    const noRate = await calculate(app, may, cz.key);
    t.same([noRate.status, noRate.body.code], [400, 'EXCHANGE_RATE_UNAVAILABLE']);
    const advanced = await ok(t, { ...may, advancePaymentDate: '2025-04-25' }, cz.key);
    t.same(advanced.totals, { byCurrency: { EUR: 75 }, inBaseCurrency: 1869.75 });
    t.equal(advanced.perDiems[1].exchangeRateDate, '2025-04-25');
  });

  t.test('SK: each calendar day alone, amounts by day, cuts of the 18-hour amount rounded up', async (t) => {
    // 5–12 h includes 12 h: 8.80 EUR (from 1 Apr 2025). DST: 00:00 to 12:00 on 26 Oct 2025 is 13 h.
    const day = await ok(t, { stops: [stop('SK', '2025-04-14T07:00'), stop('SK', '2025-04-14T19:00')] }, sk.key);
    t.match(day, { law: 'SK', baseCurrency: 'EUR', totals: { byCurrency: { EUR: 8.8 }, inBaseCurrency: 8.8 } });
    const dst = await ok(t, { stops: [stop('SK', '2025-10-26T00:00'), stop('SK', '2025-10-26T12:00')] }, sk.key);
    t.match(dst.perDiems[0], { hours: 13, amount: 13.1 });

    // Across 1 Dec 2025: 30 Nov 16 h at 13.10 (old amounts), 1 Dec 20 h at 20.60 (new amounts).
    const itinerary = { stops: [stop('SK', '2025-11-30T08:00'), stop('SK', '2025-12-01T20:00')] };
    const across = await ok(t, itinerary, sk.key);
    t.same(amounts(across), [
      ['SK', '2025-11-30T08:00', 13.1],
      ['SK', '2025-12-01T00:00', 20.6],
    ]);
    t.equal(across.totals.inBaseCurrency, 33.7);
    // Meals cut a share of the over-18-hour amount of the day, then the day is rounded up:
    // 13.10 − 35 % × 19.50 = 6.275 → 6.28; 20.60 − 40 % × 20.60 = 12.36.
    const [nov, dec] = across.perDiems;
    const withMeals = await ok(
      t,
      {
        ...itinerary,
        meals: [
          { countryCode: nov.countryCode, departureTime: nov.departureTime, dinnersProvided: 1 },
          { countryCode: dec.countryCode, departureTime: dec.departureTime, lunchesProvided: 1 },
        ],
      },
      sk.key,
    );
    t.same(
      withMeals.perDiems.map((r: any) => [r.mealReduction, r.amount]),
      [
        [6.82, 6.28],
        [8.24, 12.36],
      ],
    );
    t.equal(withMeals.totals.inBaseCurrency, 18.64);

    // Foreign (Austria 45 EUR): 14 Apr 15 h abroad (full; 3 h at home: nothing), 15 Apr 10 h abroad
    // (half, 22.50) and 8 h at home (8.80).
    const foreign = await ok(
      t,
      {
        stops: [
          stop('SK', '2025-04-14T06:00'),
          stop('AT', '2025-04-14T09:00'),
          stop('SK', '2025-04-15T10:00'),
          stop('SK', '2025-04-15T18:00'),
        ],
      },
      sk.key,
    );
    t.same(amounts(foreign), [
      ['SK', '2025-04-14T06:00', 0],
      ['AT', '2025-04-14T09:00', 45],
      ['AT', '2025-04-15T00:00', 22.5],
      ['SK', '2025-04-15T10:00', 8.8],
    ]);
    t.same(foreign.totals, { byCurrency: { EUR: 76.3 }, inBaseCurrency: 76.3 });
    // Exactly 6 h abroad is a quarter (11.25); the 2 h + 6 h at home are summed on a one-day trip (8.80).
    const six = await ok(
      t,
      {
        stops: [
          stop('SK', '2025-04-14T06:00'),
          stop('AT', '2025-04-14T08:00'),
          stop('SK', '2025-04-14T14:00'),
          stop('SK', '2025-04-14T20:00'),
        ],
      },
      sk.key,
    );
    t.same(six.totals, { byCurrency: { EUR: 20.05 }, inBaseCurrency: 20.05 });

    // Czechia 600 CZK: 10 h abroad = half = 300 CZK, at the ECB rate of the 1st of the month the
    // trip started (1 Apr 2025 in the fixtures: 25.147): 11.9298… → 11.93 EUR.
    const czk = await ok(
      t,
      { stops: [stop('SK', '2025-04-14T06:00'), stop('CZ', '2025-04-14T10:00'), stop('SK', '2025-04-14T20:00')] },
      sk.key,
    );
    t.match(czk.perDiems[1], {
      units: 0.5,
      rate: 600,
      currencyCode: 'CZK',
      amount: 300,
      exchangeRate: 25.147,
      exchangeRateDate: '2025-04-01',
      exchangeRateSource: 'ECB',
      amountInBaseCurrency: 11.93,
    });
    t.same(czk.totals, { byCurrency: { CZK: 300 }, inBaseCurrency: 11.93 });
  });

  t.test('nothing is stored', async (t) => {
    await calculate(app, { stops: [stop('HR', '2025-04-14T07:00'), stop('HR', '2025-04-15T17:30')] });
    await calculate(app, { stops: [stop('HR', '2025-04-14T07:00')] });
    t.equal(await storeHead(app), headBefore, 'no event appended by any calculation of this file');
    for (const key of [app.tenant.key, si.key, cz.key, sk.key])
      t.equal((await app.request('GET', '/api/v1/travel-entries', { key })).body.total, 0, 'no travel entry');
  });

  // Last: it changes the HR table of this process.
  t.test('an operator-imported table row is used, and the answer names its revision', async (t) => {
    const csv = 'law,validFrom,validTo,countryCode,countryName,rate,currency,source\nHR,2024-02-08,,DE,Njemačka,95,EUR,test fixture\n';
    const imported = await importPerDiemRateTable(app.rt.store, {
      law: 'HR',
      validFrom: '2024-02-08',
      complete: false,
      fileName: 'test.csv',
      text: csv,
    });
    t.equal(imported.recorded, true);
    const body = { stops: [stop('HR', '2025-04-14T06:00'), stop('DE', '2025-04-14T07:00'), stop('HR', '2025-04-14T20:00')] };
    let res = await calculate(app, body);
    for (const deadline = Date.now() + 3000; res.status !== 200 && Date.now() < deadline; res = await calculate(app, body))
      await new Promise((r) => setTimeout(r, 200));
    t.equal(res.status, 200, `calculated (${res.body.code ?? 'ok'})`);
    t.same(res.body.rateTables, { law: 'HR', revision: imported.revision }, 'the import’s revision');
    t.match(res.body.perDiems?.[1], { countryCode: 'DE', rate: 95, amount: 95 }, 'the imported rate');
    const table = await app.request('GET', '/api/v1/reference/per-diem-rates?date=2025-04-14&countryCode=DE');
    t.match(
      table.body.foreign,
      { rateTableRevision: imported.revision, available: true, rates: [{ countryCode: 'DE', rate: 95 }] },
      'the rate table shows it',
    );
  });
});
