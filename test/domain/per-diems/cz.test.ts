// Czechia (zákoník práce §163, §166, §170, §183–184; vyhlášky 475/2024, 573/2025, 373/2024,
// 489/2025 Sb.), checked against ../shared/research/perdiem-verified.md §3: calendar days in Czech
// time; domestic 5–12 / >12–18 / >18 h (155 / 236 / 370 CZK in 2026); two calendar days merged when
// more favourable; abroad a third from 1 h, two thirds over 12 h, full over 18 h of the rate of the
// country with the most time; meals 70 / 35 / 25 % of the amount due; CNB rate of the advance day.
import t from 'tap';
import { calc, cnbBook, datedBook, hm, meal, paid, throwsDomain, totalIn, wallPlus } from './helpers.js';

const START = '2026-05-04T05:00';

const domestic = (hours: number, start = START, meals?: ReturnType<typeof meal>[]) =>
  calc(
    'CZ',
    [
      ['CZ', start],
      ['CZ', wallPlus(start, hours)],
    ],
    { meals },
  );

/** Straight abroad at `start` (a 0 h Czech leg: the border), `hours` in `country` (same clock as Prague), back. */
const abroad = (country: string, hours: number, start = START, meals?: ReturnType<typeof meal>[]) =>
  calc(
    'CZ',
    [
      ['CZ', start],
      [country, start],
      ['CZ', wallPlus(start, hours)],
    ],
    { meals },
  );

t.test('domestic 2026: band edges one minute either side of 5, 12 and 18 h (5, 12 and 18 h in the lower band)', async (t) => {
  const cases: [number, string][] = [
    [hm(4, 59), '0.00'],
    [hm(5), '155.00'],
    [hm(5, 1), '155.00'],
    [hm(11, 59), '155.00'],
    [hm(12), '155.00'],
    [hm(12, 1), '236.00'],
    [hm(17, 59), '236.00'],
    [hm(18), '236.00'],
    [hm(18, 1), '370.00'],
  ];
  for (const [hours, amount] of cases) {
    const r = domestic(hours);
    t.equal(r.baseCurrency, 'CZK');
    t.equal(r.totals.inBaseCurrency, amount, `${hours} h`);
    t.strictSame(r.totals.byCurrency, amount === '0.00' ? {} : { CZK: amount }, `${hours} h by currency`);
  }
});

t.test('domestic 2025 (475/2024 Sb.): 148 / 225 / 353 CZK', async (t) => {
  t.equal(domestic(8, '2025-05-05T06:00').totals.inBaseCurrency, '148.00');
  t.equal(domestic(13, '2025-05-05T06:00').totals.inBaseCurrency, '225.00');
  t.equal(domestic(hm(18, 1), '2025-05-05T05:00').totals.inBaseCurrency, '353.00');
});

t.test('domestic 2024 (398/2023 Sb., perdiem.md §3.1: 140 / 212 / 333 CZK)', async (t) => {
  let total: string;
  try {
    total = domestic(8, '2024-05-06T06:00').totals.inBaseCurrency;
  } catch (e) {
    total = `refused: ${(e as { code?: string }).code}`;
  }
  t.equal(total, '140.00', '8 h in 2024', {});
});

t.test('domestic: each calendar day on its own; a year change takes each day’s own amounts (225 + 370)', async (t) => {
  // 31 Dec 2025 06:00 -> 1 Jan 2026 20:00: 18 h (2025: 225) + 20 h (2026: 370); merged 38 h would pay one amount.
  const r = calc('CZ', [
    ['CZ', '2025-12-31T06:00'],
    ['CZ', '2026-01-01T20:00'],
  ]);
  t.equal(r.perDiems.length, 2, 'one row a calendar day');
  t.equal(r.perDiems[0]!.arrivalTime, '2026-01-01T00:00');
  t.equal(r.totals.inBaseCurrency, '595.00');
});

t.test('§163(4): a trip within exactly two calendar days is assessed as one when that is more favourable', async (t) => {
  // 20:00–04:00 = 8 h -> 155 (day by day: 4 h + 4 h -> nothing).
  const night = calc('CZ', [
    ['CZ', '2026-05-04T20:00'],
    ['CZ', '2026-05-05T04:00'],
  ]);
  t.equal(night.totals.inBaseCurrency, '155.00');
  t.equal(paid(night).length, 1, 'one row holds the amount');
  // 06:00–02:00 = 20 h: day by day 18 h (236) + 2 h (0) = 236; as one 370.
  const long = calc('CZ', [
    ['CZ', '2026-05-04T06:00'],
    ['CZ', '2026-05-05T02:00'],
  ]);
  t.equal(long.totals.inBaseCurrency, '370.00');
  // 07:00–12:00 next day = 29 h: day by day 17 h (236) + 12 h (155) = 391 beats one 370.
  const split = calc('CZ', [
    ['CZ', '2026-05-04T07:00'],
    ['CZ', '2026-05-05T12:00'],
  ]);
  t.equal(split.totals.inBaseCurrency, '391.00');
  // 22:01–04:00 = 5 h 59 as one: 155; 22:00–02:59 = 4 h 59: nothing.
  t.equal(
    calc('CZ', [
      ['CZ', '2026-05-04T22:01'],
      ['CZ', '2026-05-05T04:00'],
    ]).totals.inBaseCurrency,
    '155.00',
  );
  t.equal(
    calc('CZ', [
      ['CZ', '2026-05-04T22:00'],
      ['CZ', '2026-05-05T02:59'],
    ]).totals.inBaseCurrency,
    '0.00',
  );
});

t.test('meals, domestic: each free meal cuts 70 % / 35 % / 25 % of the band amount (155 x 0.30 = 46.50)', async (t) => {
  t.equal(domestic(7, START, [meal('CZ', START, 0, 1)]).totals.inBaseCurrency, '46.50');
  t.equal(domestic(7, START, [meal('CZ', START, 1)]).totals.inBaseCurrency, '46.50', 'a breakfast counts too');
  t.equal(domestic(7, START, [meal('CZ', START, 0, 1, 1)]).totals.inBaseCurrency, '0.00', 'two meals at 5–12 h: nothing');
  t.equal(domestic(14, START, [meal('CZ', START, 0, 1)]).totals.inBaseCurrency, '153.40'); // 236 x 0.65
  t.equal(domestic(14, START, [meal('CZ', START, 1, 1, 1)]).totals.inBaseCurrency, '0.00', 'three meals at 12–18 h: nothing');
  t.equal(domestic(hm(18, 30), START, [meal('CZ', START, 0, 1)]).totals.inBaseCurrency, '277.50'); // 370 x 0.75
  t.equal(domestic(hm(18, 30), START, [meal('CZ', START, 1, 1, 1)]).totals.inBaseCurrency, '92.50'); // 370 x 0.25
  const row = domestic(7, START, [meal('CZ', START, 0, 1)]).perDiems[0]!;
  t.equal(row.mealReduction, '108.50');
});

t.test('DST: a one-day trip on 29 Mar 2026 of 18 h 30 wall is 17 h 30 (236); on 25 Oct 2026 17 h 30 wall is 18 h 30 (370)', async (t) => {
  const spring = calc('CZ', [
    ['CZ', '2026-03-29T00:30'],
    ['CZ', '2026-03-29T19:00'],
  ]);
  t.equal(spring.perDiems[0]!.hours, '17.5');
  t.equal(spring.totals.inBaseCurrency, '236.00');
  const autumn = calc('CZ', [
    ['CZ', '2026-10-25T00:00'],
    ['CZ', '2026-10-25T17:30'],
  ]);
  t.equal(autumn.perDiems[0]!.hours, '18.5');
  t.equal(autumn.totals.inBaseCurrency, '370.00');
});

t.test('DST: three days over the changes: 16 h + 23 h + 17 h (March) and 16 h + 25 h + 17 h (October) = 236 + 370 + 236', async (t) => {
  const spring = calc('CZ', [
    ['CZ', '2026-03-28T08:00'],
    ['CZ', '2026-03-30T17:00'],
  ]);
  t.strictSame(
    spring.perDiems.map((r) => r.hours),
    ['16', '23', '17'],
  );
  t.equal(spring.totals.inBaseCurrency, '842.00');
  const autumn = calc('CZ', [
    ['CZ', '2026-10-24T08:00'],
    ['CZ', '2026-10-26T17:00'],
  ]);
  t.strictSame(
    autumn.perDiems.map((r) => r.hours),
    ['16', '25', '17'],
  );
  t.equal(autumn.totals.inBaseCurrency, '842.00');
});

t.test('DST + §163(4): 22:00–04:00 wall over the spring change is 5 h (155); 22:01 is 4 h 59 (0)', async (t) => {
  t.equal(
    calc('CZ', [
      ['CZ', '2026-03-28T22:00'],
      ['CZ', '2026-03-29T04:00'],
    ]).totals.inBaseCurrency,
    '155.00',
  );
  t.equal(
    calc('CZ', [
      ['CZ', '2026-03-28T22:01'],
      ['CZ', '2026-03-29T04:00'],
    ]).totals.inBaseCurrency,
    '0.00',
  );
  // Autumn: 20:00–04:00 wall is 9 h.
  t.equal(
    calc('CZ', [
      ['CZ', '2026-10-24T20:00'],
      ['CZ', '2026-10-25T04:00'],
    ]).totals.inBaseCurrency,
    '155.00',
  );
});

t.test('foreign 2026: band edges at 1, 12 and 18 h abroad (DE 50 EUR): 1/3 from 1 h, 2/3 over 12 h, full over 18 h', async (t) => {
  const cases: [number, string, string][] = [
    [hm(0, 59), '0', '0.00'],
    [hm(1), '0.3333', '16.67'],
    [hm(1, 1), '0.3333', '16.67'],
    [hm(11, 59), '0.3333', '16.67'],
    [hm(12), '0.3333', '16.67'],
    [hm(12, 1), '0.6667', '33.33'],
    [hm(17, 59), '0.6667', '33.33'],
    [hm(18), '0.6667', '33.33'],
    [hm(18, 1), '1', '50.00'],
  ];
  for (const [hours, units, eur] of cases) {
    const r = abroad('DE', hours);
    t.equal(totalIn(r, 'EUR'), eur, `${hours} h in DE`);
    const de = r.perDiems.find((row) => row.countryCode === 'DE')!;
    t.equal(de.units, units, `${hours} h units`);
    if (eur !== '0.00') t.equal(de.rate, '50.00');
  }
});

t.test('foreign: under 1 h abroad is domestic time (10 h CZ + 59 min DE = 10 h 59 -> 155 CZK)', async (t) => {
  const r = calc('CZ', [
    ['CZ', '2026-05-04T06:00'],
    ['DE', '2026-05-04T11:00'],
    ['CZ', '2026-05-04T11:59'],
    ['CZ', '2026-05-04T16:59'],
  ]);
  t.strictSame(r.totals.byCurrency, { CZK: '155.00' });
});

t.test('foreign: when the Czech part earns domestic stravné (>= 5 h), the third needs more than 5 h abroad (§170(3))', async (t) => {
  // CZ 3 h + BG 5 h + CZ 3 h (BG is one hour ahead of Prague): 6 h at home -> no third; all 11 h domestic -> 155.
  const five = calc('CZ', [
    ['CZ', '2026-05-04T06:00'],
    ['BG', '2026-05-04T10:00'],
    ['CZ', '2026-05-04T14:00'],
    ['CZ', '2026-05-04T17:00'],
  ]);
  t.strictSame(five.totals.byCurrency, { CZK: '155.00' });
  // BG 5 h 01: a third of 45 EUR = 15 EUR, and the 6 h at home -> 155 CZK.
  const more = calc('CZ', [
    ['CZ', '2026-05-04T06:00'],
    ['BG', '2026-05-04T10:00'],
    ['CZ', '2026-05-04T14:01'],
    ['CZ', '2026-05-04T17:01'],
  ]);
  t.strictSame(more.totals.byCurrency, { CZK: '155.00', EUR: '15.00' });
  t.equal(more.totals.inBaseCurrency, '530.00'); // 155 + 15 x 25
  // CZ 2 h + BG 2 h + CZ 2 h: 4 h at home earn nothing, so a third from 1 h abroad.
  const short = calc('CZ', [
    ['CZ', '2026-05-04T06:00'],
    ['BG', '2026-05-04T09:00'],
    ['CZ', '2026-05-04T10:00'],
    ['CZ', '2026-05-04T12:00'],
  ]);
  t.strictSame(short.totals.byCurrency, { EUR: '15.00' });
});

t.test('mixed trip over three days: DE 16 h, 24 h, 18 h -> 2/3 + full + 2/3 (domestic parts under 5 h)', async (t) => {
  const r = calc('CZ', [
    ['CZ', '2026-05-04T06:00'],
    ['DE', '2026-05-04T08:00'],
    ['CZ', '2026-05-06T18:00'],
    ['CZ', '2026-05-06T20:00'],
  ]);
  const de = r.perDiems.filter((row) => row.countryCode === 'DE');
  t.strictSame(
    de.map((row) => [row.departureTime, row.hours, row.units, row.amount]),
    [
      ['2026-05-04T08:00', '16', '0.6667', '33.33'],
      ['2026-05-05T00:00', '24', '1', '50.00'],
      ['2026-05-06T00:00', '18', '0.6667', '33.33'],
    ],
  );
  t.strictSame(r.totals.byCurrency, { EUR: '116.66' });
  t.equal(r.totals.inBaseCurrency, '2916.50'); // (33.33 + 50 + 33.33) x 25
});

t.test('mixed trip: a day with 8 h at home and 8 h abroad pays both (no §163(4) merge on a foreign trip)', async (t) => {
  // Day 1: CZ 8 h -> 155 CZK; DE 8 h (> 5 h) -> 1/3. Day 2: DE 20 h -> full; CZ 2 h -> 0.
  const r = calc('CZ', [
    ['CZ', '2026-05-04T08:00'],
    ['DE', '2026-05-04T16:00'],
    ['CZ', '2026-05-05T20:00'],
    ['CZ', '2026-05-05T22:00'],
  ]);
  t.strictSame(r.totals.byCurrency, { CZK: '155.00', EUR: '66.67' });
});

t.test('several countries a day: the rate of the country with the most time, the band of all time abroad', async (t) => {
  // SK 8 h, DE 10 h: 18 h abroad -> 2/3 of DE 50.
  const r = calc('CZ', [
    ['CZ', '2026-05-04T04:00'],
    ['SK', '2026-05-04T05:00'],
    ['DE', '2026-05-04T13:00'],
    ['CZ', '2026-05-04T23:00'],
    ['CZ', '2026-05-04T23:30'],
  ]);
  t.strictSame(r.totals.byCurrency, { EUR: '33.33' });
  t.equal(paid(r)[0]!.countryCode, 'DE');
  // SK 10 h, DE 8 h: SK 40.
  const sk = calc('CZ', [
    ['CZ', '2026-05-04T04:00'],
    ['SK', '2026-05-04T05:00'],
    ['DE', '2026-05-04T15:00'],
    ['CZ', '2026-05-04T23:00'],
    ['CZ', '2026-05-04T23:30'],
  ]);
  t.strictSame(sk.totals.byCurrency, { EUR: '26.67' });
});

t.test('several countries, equal time ([U], decision: the higher rate)', async (t) => {
  // SK 9 h, DE 9 h -> 2/3 of 50.
  const r = calc('CZ', [
    ['CZ', '2026-05-04T04:00'],
    ['SK', '2026-05-04T05:00'],
    ['DE', '2026-05-04T14:00'],
    ['CZ', '2026-05-04T23:00'],
    ['CZ', '2026-05-04T23:30'],
  ]);
  t.strictSame(r.totals.byCurrency, { EUR: '33.33' });
  // DE 6 h, US 6 h: 70 USD (1610 CZK) beats 50 EUR (1250 CZK) -> 1/3 of 70 USD.
  const us = calc('CZ', [
    ['CZ', '2026-05-04T06:00'],
    ['DE', '2026-05-04T06:00'],
    ['US', '2026-05-04T06:00', 'America/New_York'],
    ['CZ', '2026-05-04T18:00'],
  ]);
  t.strictSame(us.totals.byCurrency, { USD: '23.33' });
});

t.test('meals abroad: 70 / 35 / 25 % of the stravné due (the third, two thirds or full amount)', async (t) => {
  const day = '2026-05-04T02:00';
  t.equal(totalIn(abroad('DE', 20, day, [meal('DE', day, 0, 1)]), 'EUR'), '37.50'); // 50 x 0.75
  // BG (Sofia, one hour ahead of Prague): 6 h from 07:00 Sofia = 06:00 Prague.
  const bg = (m: ReturnType<typeof meal>) =>
    calc(
      'CZ',
      [
        ['CZ', '2026-05-04T06:00'],
        ['BG', '2026-05-04T07:00'],
        ['CZ', '2026-05-04T12:00'],
      ],
      { meals: [m] },
    );
  t.equal(totalIn(bg(meal('BG', '2026-05-04T07:00', 0, 1)), 'EUR'), '4.50'); // 15 x 0.30
  t.equal(totalIn(bg(meal('BG', '2026-05-04T07:00', 1, 1)), 'EUR'), '0.00', 'two meals at <= 12 h: nothing');
  t.equal(totalIn(abroad('DE', 14, START, [meal('DE', START, 0, 1, 1)]), 'EUR'), '10.00'); // 33.333 x 0.30
  t.equal(totalIn(abroad('DE', 14, START, [meal('DE', START, 1, 1, 1)]), 'EUR'), '0.00', 'three meals at 12–18 h: nothing');
});

t.test('DST abroad: 19 wall hours in DE on 29 Mar 2026 are 18 h (2/3); whole 23 h and 25 h days are full', async (t) => {
  const spring = calc('CZ', [
    ['CZ', '2026-03-29T00:00'],
    ['DE', '2026-03-29T00:00'],
    ['CZ', '2026-03-29T19:00'],
  ]);
  t.strictSame(spring.totals.byCurrency, { EUR: '33.33' });
  // BG (Sofia, one hour ahead) from 22:00 Prague on the 28th to 02:00 Prague on the 30th: 2 h + 23 h + 2 h.
  const march = calc('CZ', [
    ['CZ', '2026-03-28T22:00'],
    ['BG', '2026-03-28T23:00'],
    ['CZ', '2026-03-30T02:00'],
  ]);
  t.strictSame(
    march.perDiems.filter((r) => r.countryCode === 'BG').map((r) => [r.hours, r.amount]),
    [
      ['2', '15.00'],
      ['23', '45.00'],
      ['2', '15.00'],
    ],
  );
  const october = calc('CZ', [
    ['CZ', '2026-10-24T22:00'],
    ['BG', '2026-10-24T23:00'],
    ['CZ', '2026-10-26T02:00'],
  ]);
  t.strictSame(
    october.perDiems.filter((r) => r.countryCode === 'BG').map((r) => [r.hours, r.amount]),
    [
      ['2', '15.00'],
      ['25', '45.00'],
      ['2', '15.00'],
    ],
  );
  t.equal(october.totals.inBaseCurrency, '1875.00');
});

t.test('rates by year: DE 45 EUR in 2025, 50 EUR in 2026; SK 35 -> 40', async (t) => {
  t.equal(totalIn(abroad('DE', 20, '2025-05-05T02:00'), 'EUR'), '45.00');
  t.equal(totalIn(abroad('DE', 20, '2026-05-04T02:00'), 'EUR'), '50.00');
  t.equal(totalIn(abroad('SK', 20, '2025-05-05T02:00'), 'EUR'), '35.00');
  t.equal(totalIn(abroad('SK', 20, '2026-05-04T02:00'), 'EUR'), '40.00');
});

t.test('exchange rate (§183(2), §184): the CNB rate valid on the advance day, else on the first day of the trip', async (t) => {
  const book = () => datedBook('CNB', 'BasePerForeign', { '2026-04-28': { EUR: '25.00' }, '2026-05-04': { EUR: '24.00' } });
  const trip: [string, string][] = [
    ['CZ', '2026-05-04T02:00'],
    ['DE', '2026-05-04T02:00'],
    ['CZ', '2026-05-04T22:00'],
  ];
  const none = calc('CZ', trip, { book: book() });
  t.equal(none.totals.inBaseCurrency, '1200.00');
  t.equal(paid(none)[0]!.exchangeRateDate, '2026-05-04');
  t.equal(paid(none)[0]!.exchangeRateSource, 'CNB');
  t.equal(paid(none)[0]!.amountInBaseCurrency, '1200.00');
  const advance = calc('CZ', trip, { book: book(), advancePaymentDate: '2026-04-28' });
  t.equal(advance.totals.inBaseCurrency, '1250.00');
  t.equal(paid(advance)[0]!.exchangeRateDate, '2026-04-28');
  // An advance paid on Saturday 2 May: the rate declared on the last working day stays valid.
  const b = book();
  const weekend = calc('CZ', trip, { book: b, advancePaymentDate: '2026-05-02' });
  t.ok(b.asked.some((a) => a.date === '2026-05-02'));
  t.equal(weekend.totals.inBaseCurrency, '1250.00');
});

t.test('unavailable: AT is not in our partial 2026 table; refused, never guessed', async (t) => {
  throwsDomain(t, () => abroad('AT', 20), 'PER_DIEM_RATE_UNAVAILABLE', ['stops[1].countryCode']);
});

t.test('a 2026 trip: Prague -> Bratislava, two days, a breakfast on the second', async (t) => {
  // Day 10: CZ 3 h 30 (0), SK 15 h -> 2/3 x 40. Day 11: SK 16 h -> 2/3 x 40 less 35 %; CZ 3 h (0).
  const r = calc(
    'CZ',
    [
      ['CZ', '2026-03-10T05:30'],
      ['SK', '2026-03-10T09:00'],
      ['CZ', '2026-03-11T16:00'],
      ['CZ', '2026-03-11T19:00'],
    ],
    { meals: [meal('SK', '2026-03-11T00:00', 1)] },
  );
  t.strictSame(
    paid(r).map((row) => [row.departureTime, row.amount]),
    [
      ['2026-03-10T09:00', '26.67'],
      ['2026-03-11T00:00', '17.33'], // 26.667 x 0.65 = 17.333
    ],
  );
  t.strictSame(r.totals.byCurrency, { EUR: '44.00' });
  t.equal(r.totals.inBaseCurrency, '1100.00');
  t.equal(cnbBook().find('EUR', '2026-03-10')!.rate, '25.00');
});
