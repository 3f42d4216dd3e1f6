// Slovakia (zákon 283/2002 Z. z. §5, §13, §36(6); opatrenia MPSVR; opatrenie MF SR 401/2012),
// checked against ../shared/research/perdiem-verified.md §4: calendar days in Slovak time, never
// merged; domestic 5–12 / >12–18 / >18 h by the amounts in force that day; abroad up to 6 h 25 %,
// up to 12 h 50 %, over 12 h 100 %; meals 25 / 40 / 35 % of the >18 h amount (domestic) or of the
// base rate (abroad), the day's stravné rounded up to the cent; ECB rate of the 1st of the month.
import t from 'tap';
import { calc, datedBook, hm, meal, paid, throwsDomain, totalIn, wallPlus } from './helpers.js';

const START = '2026-05-04T05:00';

const domestic = (hours: number, start = START, meals?: ReturnType<typeof meal>[]) =>
  calc(
    'SK',
    [
      ['SK', start],
      ['SK', wallPlus(start, hours)],
    ],
    { meals },
  );

/** Straight abroad at `start` (a 0 h Slovak leg: the border), `hours` in `country` (same clock as Bratislava), back. */
const abroad = (country: string, hours: number, start = START, meals?: ReturnType<typeof meal>[]) =>
  calc(
    'SK',
    [
      ['SK', start],
      [country, start],
      ['SK', wallPlus(start, hours)],
    ],
    { meals },
  );

t.test('domestic from 1 Dec 2025: band edges one minute either side of 5, 12 and 18 h (9.30 / 13.80 / 20.60)', async (t) => {
  const cases: [number, string][] = [
    [hm(4, 59), '0.00'],
    [hm(5), '9.30'],
    [hm(5, 1), '9.30'],
    [hm(11, 59), '9.30'],
    [hm(12), '9.30'], // "5 hodín až 12 hodín" includes 12 h
    [hm(12, 1), '13.80'],
    [hm(17, 59), '13.80'],
    [hm(18), '13.80'],
    [hm(18, 1), '20.60'],
  ];
  for (const [hours, amount] of cases) {
    const r = domestic(hours);
    t.equal(r.baseCurrency, 'EUR');
    t.equal(r.totals.inBaseCurrency, amount, `${hours} h`);
  }
});

t.test('domestic amounts by date: 8.30 (from 1 Sep 2024), 8.80 / 13.10 / 19.50 (from 1 Apr 2025)', async (t) => {
  t.equal(domestic(8, '2024-10-07T06:00').totals.inBaseCurrency, '8.30');
  t.equal(domestic(8, '2025-06-02T06:00').totals.inBaseCurrency, '8.80');
  t.equal(domestic(13, '2025-06-02T06:00').totals.inBaseCurrency, '13.10');
  t.equal(domestic(19, '2025-06-02T05:00').totals.inBaseCurrency, '19.50');
});

t.test('rate change: a trip 30 Nov – 1 Dec 2025 pays each day at its own amounts (13.10 + 20.60)', async (t) => {
  const r = calc('SK', [
    ['SK', '2025-11-30T06:00'],
    ['SK', '2025-12-01T20:00'],
  ]);
  t.strictSame(
    r.perDiems.map((row) => [row.departureTime, row.hours, row.amount]),
    [
      ['2025-11-30T06:00', '18', '13.10'],
      ['2025-12-01T00:00', '20', '20.60'],
    ],
  );
  t.equal(r.totals.inBaseCurrency, '33.70');
  // And 31 Mar – 1 Apr 2025: 18 h at 12.30, 20 h at 19.50.
  t.equal(
    calc('SK', [
      ['SK', '2025-03-31T06:00'],
      ['SK', '2025-04-01T20:00'],
    ]).totals.inBaseCurrency,
    '31.80',
  );
});

t.test('never merged across midnight: 20:00–04:00 pays nothing (unlike CZ §163(4))', async (t) => {
  const r = calc('SK', [
    ['SK', '2026-05-04T20:00'],
    ['SK', '2026-05-05T04:00'],
  ]);
  t.equal(r.perDiems.length, 2);
  t.equal(r.totals.inBaseCurrency, '0.00');
  // 14:00–04:00: 10 h (9.30) + 4 h (0).
  t.equal(
    calc('SK', [
      ['SK', '2026-05-04T14:00'],
      ['SK', '2026-05-05T04:00'],
    ]).totals.inBaseCurrency,
    '9.30',
  );
});

t.test('meals, domestic: 25 / 40 / 35 % of the >18 h amount, whatever the band; the day rounded up to the cent', async (t) => {
  const at = (hours: number, start: string, b: number, l: number, d: number) =>
    domestic(hours, start, [meal('SK', start, b, l, d)]).totals.inBaseCurrency;
  t.equal(at(7, START, 0, 1, 0), '1.06'); // 9.30 - 0.40 x 20.60
  t.equal(at(13, '2025-06-02T06:00', 0, 0, 1), '6.28'); // 13.10 - 0.35 x 19.50 = 6.275
  t.equal(at(13, '2025-06-02T06:00', 1, 0, 0), '8.23'); // 13.10 - 0.25 x 19.50 = 8.225
  t.equal(at(13, START, 1, 0, 0), '8.65'); // 13.80 - 5.15
  t.equal(at(19, START, 1, 0, 0), '15.45'); // 20.60 x 0.75
  t.equal(at(19, START, 1, 1, 1), '0.00'); // 25 + 40 + 35 = 100 %
  t.equal(at(7, START, 0, 1, 1), '0.00', 'cuts over the stravné: 0, never negative');
  const row = domestic(7, START, [meal('SK', START, 0, 1)]).perDiems[0]!;
  t.equal(row.mealReduction, '8.24');
});

t.test('foreign: band edges at 6 and 12 h (AT 45 EUR); no lower limit', async (t) => {
  const cases: [number, string, string][] = [
    [hm(0, 1), '0.25', '11.25'],
    [hm(5, 59), '0.25', '11.25'],
    [hm(6), '0.25', '11.25'], // decision: exactly 6 h is the 25 % band
    [hm(6, 1), '0.5', '22.50'],
    [hm(11, 59), '0.5', '22.50'],
    [hm(12), '0.5', '22.50'],
    [hm(12, 1), '1', '45.00'],
    [hm(18, 1), '1', '45.00'],
  ];
  for (const [hours, units, amount] of cases) {
    const r = abroad('AT', hours);
    t.equal(r.totals.inBaseCurrency, amount, `${hours} h in AT`);
    t.equal(paid(r)[0]!.units, units, `${hours} h units`);
    t.equal(paid(r)[0]!.rate, '45.00');
  }
});

t.test('foreign rates of 401/2012: HU 39, PL 37, SI 38, HR 40 EUR', async (t) => {
  t.equal(abroad('HU', 20, '2026-05-04T02:00').totals.inBaseCurrency, '39.00');
  t.equal(abroad('PL', 20, '2026-05-04T02:00').totals.inBaseCurrency, '37.00');
  t.equal(abroad('SI', 20, '2026-05-04T02:00').totals.inBaseCurrency, '38.00');
  t.equal(abroad('HR', 20, '2026-05-04T02:00').totals.inBaseCurrency, '40.00');
});

t.test('mixed one-day trip: Slovak parts summed (3 h + 3 h = 6 h -> 9.30) and AT 7 h -> 50 %', async (t) => {
  const r = calc('SK', [
    ['SK', '2026-05-04T06:00'],
    ['AT', '2026-05-04T09:00'],
    ['SK', '2026-05-04T16:00'],
    ['SK', '2026-05-04T19:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '31.80');
  t.equal(paid(r).length, 2);
});

t.test('mixed trip over three days: each day on its own (45 + 45 + 45 + 9.30)', async (t) => {
  const r = calc('SK', [
    ['SK', '2026-05-04T06:00'],
    ['AT', '2026-05-04T10:00'],
    ['SK', '2026-05-06T14:00'],
    ['SK', '2026-05-06T20:00'],
  ]);
  t.strictSame(
    paid(r).map((row) => [row.countryCode, row.departureTime, row.amount]),
    [
      ['AT', '2026-05-04T10:00', '45.00'],
      ['AT', '2026-05-05T00:00', '45.00'],
      ['AT', '2026-05-06T00:00', '45.00'],
      ['SK', '2026-05-06T14:00', '9.30'],
    ],
  );
  t.equal(r.totals.inBaseCurrency, '144.30');
});

t.test('several countries a day: the rate of the most hours, the band of all time abroad (AT 5 h, HU 4 h -> 50 % of 45)', async (t) => {
  const r = calc('SK', [
    ['SK', '2026-05-04T06:00'],
    ['AT', '2026-05-04T07:00'],
    ['HU', '2026-05-04T12:00'],
    ['SK', '2026-05-04T16:00'],
    ['SK', '2026-05-04T17:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '22.50');
  t.equal(paid(r)[0]!.countryCode, 'AT');
});

t.test('several countries, equal hours: the rate more favourable to the employee', async (t) => {
  // HU 5 h, PL 5 h: 39 > 37.
  const r = calc('SK', [
    ['SK', '2026-05-04T06:00'],
    ['HU', '2026-05-04T06:00'],
    ['PL', '2026-05-04T11:00'],
    ['SK', '2026-05-04T16:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '19.50');
  // CZ 600 CZK vs HU 39 EUR: compared in EUR at the rate of §36(6).
  const trip: [string, string][] = [
    ['SK', '2026-05-04T06:00'],
    ['CZ', '2026-05-04T06:00'],
    ['HU', '2026-05-04T11:00'],
    ['SK', '2026-05-04T16:00'],
  ];
  const weak = calc('SK', trip, { book: datedBook('ECB', 'ForeignPerBase', { '2026-04-01': { CZK: '25.00' } }) });
  t.strictSame(weak.totals.byCurrency, { EUR: '19.50' }, '600 CZK = 24 EUR < 39 EUR');
  const strong = calc('SK', trip, { book: datedBook('ECB', 'ForeignPerBase', { '2026-04-01': { CZK: '10.00' } }) });
  t.strictSame(strong.totals.byCurrency, { CZK: '300.00' }, '600 CZK = 60 EUR > 39 EUR');
  t.equal(strong.totals.inBaseCurrency, '30.00');
});

t.test('foreign currency: CZ 600 CZK at the ECB rate valid on the 1st of the month the trip started (§36(6))', async (t) => {
  const book = datedBook('ECB', 'ForeignPerBase', { '2026-04-30': { CZK: '25.00' }, '2026-05-04': { CZK: '20.00' } });
  const r = calc(
    'SK',
    [
      ['SK', '2026-05-14T02:00'],
      ['CZ', '2026-05-14T02:00'],
      ['SK', '2026-05-14T22:00'],
    ],
    { book },
  );
  const cz = paid(r)[0]!;
  t.equal(cz.currencyCode, 'CZK');
  t.equal(cz.amount, '600.00');
  t.ok(
    book.asked.some((a) => a.currency === 'CZK' && a.date === '2026-05-01'),
    'asks for 1 May',
  );
  t.equal(cz.exchangeRateDate, '2026-04-30', '1 May 2026 is no TARGET day: the last fixing before it');
  t.equal(cz.amountInBaseCurrency, '24.00');
  t.equal(r.totals.inBaseCurrency, '24.00');
});

t.test('foreign currency: GB 37 GBP -> 43.53 EUR at 0.85', async (t) => {
  const r = calc('SK', [
    ['SK', '2026-05-04T02:00'],
    ['GB', '2026-05-04T01:00'],
    ['SK', '2026-05-04T22:00'],
  ]);
  t.strictSame(r.totals.byCurrency, { GBP: '37.00' });
  t.equal(r.totals.inBaseCurrency, '43.53');
});

t.test('meals abroad: 25 / 40 / 35 % of the base rate (AT 45)', async (t) => {
  const day = '2026-05-04T02:00';
  t.equal(abroad('AT', 20, day, [meal('AT', day, 0, 1)]).totals.inBaseCurrency, '27.00'); // 45 - 18
  t.equal(abroad('AT', 10, day, [meal('AT', day, 0, 0, 1)]).totals.inBaseCurrency, '6.75'); // 22.50 - 15.75
  t.equal(abroad('AT', 5, day, [meal('AT', day, 1)]).totals.inBaseCurrency, '0.00'); // 11.25 - 11.25
  t.equal(abroad('AT', 5, day, [meal('AT', day, 0, 1)]).totals.inBaseCurrency, '0.00', 'never negative');
});

t.test('DST: 19 wall hours on 29 Mar 2026 are 18 h (13.80); 17 h 30 wall on 25 Oct 2026 are 18 h 30 (20.60)', async (t) => {
  const spring = calc('SK', [
    ['SK', '2026-03-29T00:00'],
    ['SK', '2026-03-29T19:00'],
  ]);
  t.equal(spring.perDiems[0]!.hours, '18');
  t.equal(spring.totals.inBaseCurrency, '13.80');
  const autumn = calc('SK', [
    ['SK', '2026-10-25T00:00'],
    ['SK', '2026-10-25T17:30'],
  ]);
  t.equal(autumn.perDiems[0]!.hours, '18.5');
  t.equal(autumn.totals.inBaseCurrency, '20.60');
  // Abroad: 13 wall hours in AT on 29 Mar are 12 h (50 %).
  t.equal(
    calc('SK', [
      ['SK', '2026-03-29T00:00'],
      ['AT', '2026-03-29T00:00'],
      ['SK', '2026-03-29T13:00'],
    ]).totals.inBaseCurrency,
    '22.50',
  );
  // A whole 25 h day abroad is one day: 45, not more.
  const long = calc('SK', [
    ['SK', '2026-10-24T22:00'],
    ['AT', '2026-10-24T22:00'],
    ['SK', '2026-10-26T02:00'],
  ]);
  t.strictSame(
    long.perDiems.filter((row) => row.countryCode === 'AT').map((row) => [row.hours, row.amount]),
    [
      ['2', '11.25'],
      ['25', '45.00'],
      ['2', '11.25'],
    ],
  );
});

t.test('unavailable: US, CH and BA are not in our copy of 401/2012; refused', async (t) => {
  throwsDomain(t, () => abroad('CH', 20), 'PER_DIEM_RATE_UNAVAILABLE', ['stops[1].countryCode']);
  throwsDomain(t, () => abroad('BA', 20), 'PER_DIEM_RATE_UNAVAILABLE', ['stops[1].countryCode']);
  throwsDomain(
    t,
    () =>
      calc('SK', [
        ['SK', START],
        ['US', '2026-05-03T23:00', 'America/New_York'],
        ['SK', wallPlus(START, 20)],
      ]),
    'PER_DIEM_RATE_UNAVAILABLE',
    ['stops[1].countryCode'],
  );
});

t.test('a 2026 trip: Bratislava -> Vienna -> Budapest -> Bratislava with a lunch and a breakfast', async (t) => {
  // Day 9: SK 1 h, AT 10 h, HU 7 h -> 17 h abroad (100 %), AT most: 45 less a lunch (18) = 27.
  // Day 10: HU 9 h (50 % of 39 = 19.50, less a breakfast 9.75 = 9.75), SK 8 h -> 9.30.
  const r = calc(
    'SK',
    [
      ['SK', '2026-09-09T06:00'],
      ['AT', '2026-09-09T07:00'],
      ['HU', '2026-09-09T17:00'],
      ['SK', '2026-09-10T09:00'],
      ['SK', '2026-09-10T17:00'],
    ],
    { meals: [meal('AT', '2026-09-09T07:00', 0, 1), meal('HU', '2026-09-10T00:00', 1)] },
  );
  t.strictSame(
    paid(r).map((row) => [row.countryCode, row.departureTime, row.amount]),
    [
      ['AT', '2026-09-09T07:00', '27.00'],
      ['HU', '2026-09-10T00:00', '9.75'],
      ['SK', '2026-09-10T09:00', '9.30'],
    ],
  );
  t.equal(totalIn(r, 'EUR'), '46.05');
});
