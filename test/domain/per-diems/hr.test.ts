// Croatia (Pravilnik o porezu na dohodak čl. 7; Odluka NN 16/2024), checked against
// ../shared/research/perdiem-verified.md §1: 24-hour blocks over the whole trip, 30 / 15 EUR at
// home, foreign per diems from the foreign hours only, domestic = whole-trip count less foreign.
import t from 'tap';
import { calc, csvVersions, datedBook, hm, hnbBook, meal, tablesOf, throwsDomain, unitsBy, version, wallPlus } from './helpers.js';

const START = '2026-05-04T06:00';

/** A trip only in Croatia lasting `hours`. */
const domestic = (hours: number, start = START) =>
  calc('HR', [
    ['HR', start],
    ['HR', wallPlus(start, hours)],
  ]);

/** Straight abroad at `start` (a 0 h Croatian leg: the border), `hours` in `country`, back. */
const abroad = (country: string, hours: number, start = START) =>
  calc('HR', [
    ['HR', start],
    [country, start],
    ['HR', wallPlus(start, hours)],
  ]);

t.test('domestic: the remainder band edges, one minute either side (8 h -> 0, 12 h -> full)', async (t) => {
  const cases: [number, string, string][] = [
    [hm(7, 59), '0', '0.00'],
    [hm(8), '0', '0.00'], // "više od 8 sati": exactly 8 h is nothing
    [hm(8, 1), '0.5', '15.00'],
    [hm(11, 59), '0.5', '15.00'],
    [hm(12), '1', '30.00'], // decision: exactly 12 h is a full per diem
    [hm(12, 1), '1', '30.00'],
    [hm(24), '1', '30.00'],
    [hm(32), '1', '30.00'],
    [hm(32, 1), '1.5', '45.00'],
    [hm(35, 59), '1.5', '45.00'],
    [hm(36), '2', '60.00'],
    [hm(36, 1), '2', '60.00'],
  ];
  for (const [hours, units, amount] of cases) {
    const r = domestic(hours);
    t.equal(r.perDiems.length, 1, `${hours} h: one row`);
    t.equal(r.perDiems[0]!.units, units, `${hours} h units`);
    t.equal(r.perDiems[0]!.amount, amount, `${hours} h amount`);
    t.equal(r.totals.inBaseCurrency, amount, `${hours} h total`);
  }
});

t.test('domestic: 81 h = 3 days + 9 h = 3.5 per diems (skola.hr) = 105 EUR', async (t) => {
  const r = domestic(81);
  t.equal(r.baseCurrency, 'EUR');
  t.equal(r.perDiems[0]!.hours, '81');
  t.equal(r.perDiems[0]!.units, '3.5');
  t.equal(r.perDiems[0]!.rate, '30.00');
  t.equal(r.perDiems[0]!.amount, '105.00');
  t.equal(r.totals.inBaseCurrency, '105.00');
  t.strictSame(r.totals.byCurrency, { EUR: '105.00' });
});

t.test('domestic: several Croatian legs are one trip (10 h -> one half)', async (t) => {
  const r = calc('HR', [
    ['HR', '2026-05-04T08:00'],
    ['HR', '2026-05-04T12:00'],
    ['HR', '2026-05-04T18:00'],
  ]);
  t.equal(r.perDiems.length, 2);
  t.equal(r.totals.inBaseCurrency, '15.00');
  t.strictSame(unitsBy(r), { HR: 0.5 });
});

t.test('foreign: the remainder band edges on foreign hours (AT 90 EUR, NN 16/2024)', async (t) => {
  const cases: [number, string][] = [
    [hm(7, 59), '0.00'],
    [hm(8), '0.00'],
    [hm(8, 1), '45.00'],
    [hm(11, 59), '45.00'],
    [hm(12), '90.00'],
    [hm(12, 1), '90.00'],
    [hm(32, 1), '135.00'],
  ];
  for (const [hours, total] of cases) {
    const r = abroad('AT', hours);
    t.equal(r.totals.inBaseCurrency, total, `${hours} h in AT`);
    const at = r.perDiems.find((row) => row.countryCode === 'AT')!;
    t.equal(at.rate, '90.00', `${hours} h rate`);
    t.equal(at.currencyCode, 'EUR');
  }
});

t.test('foreign: exactly 8 h abroad earns no foreign half, and the 10 h trip pays the domestic half', async (t) => {
  // 1 h HR + 8 h AT + 1 h HR = 10 h: foreign count 0; leftover 8 foreign hours join the domestic ones.
  const r = calc('HR', [
    ['HR', '2026-05-04T06:00'],
    ['AT', '2026-05-04T07:00'],
    ['HR', '2026-05-04T15:00'],
    ['HR', '2026-05-04T16:00'],
  ]);
  t.strictSame(unitsBy(r), { HR: 0.5 });
  t.equal(r.totals.inBaseCurrency, '15.00');
});

t.test('foreign + domestic: teb.hr 38 h 30 total, 28 h abroad -> 1 foreign + 1 domestic', async (t) => {
  const r = calc('HR', [
    ['HR', '2026-05-04T06:00'],
    ['AT', '2026-05-04T11:00'], // 5 h at home
    ['HR', '2026-05-05T15:00'], // 28 h in AT
    ['HR', '2026-05-05T20:30'], // 5 h 30 at home
  ]);
  t.strictSame(unitsBy(r), { AT: 1, HR: 1 });
  t.strictSame(r.totals.byCurrency, { EUR: '120.00' }); // 90 + 30
  t.equal(r.totals.inBaseCurrency, '120.00');
});

t.test('foreign + domestic: logika.hr 37 h total, 31 h abroad -> 1 + 1', async (t) => {
  const r = calc('HR', [
    ['HR', '2026-05-04T06:00'],
    ['AT', '2026-05-04T09:00'],
    ['HR', '2026-05-05T16:00'],
    ['HR', '2026-05-05T19:00'],
  ]);
  t.strictSame(unitsBy(r), { AT: 1, HR: 1 });
  t.equal(r.totals.inBaseCurrency, '120.00');
});

t.test('foreign + domestic: logika.hr 103 h total, 85 h abroad -> 4 foreign + 0 domestic (whole-trip cap)', async (t) => {
  const r = calc('HR', [
    ['HR', '2026-05-04T06:00'],
    ['AT', '2026-05-04T15:00'], // 9 h
    ['HR', '2026-05-08T04:00'], // 85 h
    ['HR', '2026-05-08T13:00'], // 9 h
  ]);
  t.strictSame(unitsBy(r), { AT: 4 });
  t.equal(r.totals.inBaseCurrency, '360.00');
});

t.test('foreign half + domestic half: 10 h abroad and 3 h at home = 13 h -> 0.5 + 0.5', async (t) => {
  const r = calc('HR', [
    ['HR', '2026-05-04T06:00'],
    ['AT', '2026-05-04T07:30'],
    ['HR', '2026-05-04T17:30'],
    ['HR', '2026-05-04T19:00'],
  ]);
  t.strictSame(unitsBy(r), { AT: 0.5, HR: 0.5 });
  t.equal(r.totals.inBaseCurrency, '60.00'); // 45 + 15
});

t.test('mixed trip with border-crossing stops: a short transit (SI, not in our table) takes the next long stay’s rate', async (t) => {
  // HR 1 h, SI 2 h transit, AT 20 h, SI 2 h transit, HR 1 h = 26 h -> 1; abroad 24 h -> 1.
  const r = calc('HR', [
    ['HR', '2026-06-01T06:00'],
    ['SI', '2026-06-01T07:00'],
    ['AT', '2026-06-01T09:00'],
    ['SI', '2026-06-02T05:00'],
    ['HR', '2026-06-02T07:00'],
    ['HR', '2026-06-02T08:00'],
  ]);
  t.equal(r.perDiems.length, 5);
  t.equal(r.totals.inBaseCurrency, '90.00');
  t.strictSame(r.totals.byCurrency, { EUR: '90.00' });
  for (const row of r.perDiems.filter((x) => x.countryCode === 'SI')) t.equal(row.amount, '0.00', 'the transit itself pays nothing');
});

t.test('several countries: each stay over 12 h takes its own rate (AT 20 h, BA 20 h)', async (t) => {
  const r = calc('HR', [
    ['HR', '2026-06-01T06:00'],
    ['AT', '2026-06-01T07:00'],
    ['BA', '2026-06-02T03:00'],
    ['HR', '2026-06-02T23:00'],
    ['HR', '2026-06-03T00:00'],
  ]);
  t.strictSame(unitsBy(r), { AT: 1, BA: 1 });
  t.equal(r.totals.inBaseCurrency, '140.00'); // 90 + 50
});

t.test('several countries: a stay under 12 h is counted with the next country where more than 12 h are spent', async (t) => {
  // BA 10 h then AT 14 h: abroad 24 h -> 1 per diem, at the AT rate (solventa.hr).
  const r = calc('HR', [
    ['HR', '2026-06-01T06:00'],
    ['BA', '2026-06-01T07:00'],
    ['AT', '2026-06-01T17:00'],
    ['HR', '2026-06-02T07:00'],
    ['HR', '2026-06-02T08:00'],
  ]);
  t.strictSame(unitsBy(r), { AT: 1 });
  t.equal(r.totals.inBaseCurrency, '90.00');
});

t.test('several countries: a short stay on the way back takes the rate of the country the trip came from', async (t) => {
  // AT 24 h, then BA 10 h on the way home: abroad 34 h -> 1.5, all at the AT rate.
  const r = calc('HR', [
    ['HR', '2026-06-01T06:00'],
    ['AT', '2026-06-01T06:00'],
    ['BA', '2026-06-02T06:00'],
    ['HR', '2026-06-02T16:00'],
  ]);
  t.strictSame(unitsBy(r), { AT: 1.5 });
  t.equal(r.totals.inBaseCurrency, '135.00');
});

t.test('several countries, only short stays: the first foreign country’s rate (outbound rule)', async (t) => {
  const r = calc('HR', [
    ['HR', '2026-06-01T06:00'],
    ['AT', '2026-06-01T06:00'],
    ['BA', '2026-06-01T12:00'],
    ['HR', '2026-06-01T17:00'],
  ]);
  t.strictSame(unitsBy(r), { AT: 0.5 }); // 11 h abroad
  t.equal(r.totals.inBaseCurrency, '45.00');
});

t.test('several long stays (documented decision): blocks run chronologically over the foreign hours, each where it ends', async (t) => {
  // AT 30 h, BA 30 h: abroad 60 h -> 3; the block count after AT is 1 (30 h), so BA takes 2.
  const r = calc('HR', [
    ['HR', '2026-06-01T06:00'],
    ['AT', '2026-06-01T06:00'],
    ['BA', '2026-06-02T12:00'],
    ['HR', '2026-06-03T18:00'],
  ]);
  t.strictSame(unitsBy(r), { AT: 1, BA: 2 });
  t.equal(r.totals.inBaseCurrency, '190.00');
});

t.test('meals: 30 % of the per diem a lunch or dinner, both 60 %; breakfast is no cut', async (t) => {
  const trip = (m: ReturnType<typeof meal>[]) =>
    calc(
      'HR',
      [
        ['HR', '2026-05-04T06:00'],
        ['HR', '2026-05-04T20:00'],
      ],
      { meals: m },
    ).perDiems[0]!;
  t.equal(trip([meal('HR', '2026-05-04T06:00', 0, 1, 0)]).amount, '21.00');
  t.equal(trip([meal('HR', '2026-05-04T06:00', 0, 1, 0)]).mealReduction, '9.00');
  t.equal(trip([meal('HR', '2026-05-04T06:00', 0, 0, 1)]).amount, '21.00');
  t.equal(trip([meal('HR', '2026-05-04T06:00', 0, 1, 1)]).amount, '12.00');
  t.equal(trip([meal('HR', '2026-05-04T06:00', 1, 0, 0)]).amount, '30.00');
  t.equal(trip([meal('HR', '2026-05-04T06:00', 1, 0, 0)]).mealReduction, '0.00');
  t.equal(trip([meal('HR', '2026-05-04T06:00', 0, 0, 0)]).amount, '30.00');
});

t.test('meals: on a half per diem the cut is 30 % of the half (15 x 0.7 = 10.50)', async (t) => {
  const r = calc(
    'HR',
    [
      ['HR', '2026-05-04T06:00'],
      ['HR', '2026-05-04T16:00'],
    ],
    { meals: [meal('HR', '2026-05-04T06:00', 0, 1, 0)] },
  );
  t.equal(r.perDiems[0]!.amount, '10.50');
  t.equal(r.perDiems[0]!.mealReduction, '4.50');
});

t.test('meals: a lunch keyed to the leg that holds the half per diem cuts the half (30 + 15 x 0.7)', async (t) => {
  // 34 h at home: the first leg holds the whole per diem, the second (10 h) the half. The lunch was
  // had on the second day, so it cuts the second day's per diem, not the first's.
  const stops: [string, string][] = [
    ['HR', '2026-03-02T08:00'],
    ['HR', '2026-03-03T08:00'],
    ['HR', '2026-03-03T18:00'],
  ];
  const second = calc('HR', stops, { meals: [meal('HR', '2026-03-03T08:00', 0, 1, 0)] });
  t.equal(second.totals.inBaseCurrency, '40.50');
  t.same(
    second.perDiems.map((r) => [r.amount, r.mealReduction]),
    [
      ['30.00', '0.00'],
      ['10.50', '4.50'],
    ],
  );
  // Keyed to the first leg it cuts the whole one, as before.
  t.equal(calc('HR', stops, { meals: [meal('HR', '2026-03-02T08:00', 0, 1, 0)] }).totals.inBaseCurrency, '36.00');
  // Three meals on the half's leg: two cut the half, the third falls on the whole one.
  t.equal(calc('HR', stops, { meals: [meal('HR', '2026-03-03T08:00', 0, 2, 1)] }).totals.inBaseCurrency, '27.00'); // 21 + 6
});

t.test('meals: abroad too (AT 90 with a dinner = 63; AT half 45 with a lunch = 31.50)', async (t) => {
  const full = calc(
    'HR',
    [
      ['HR', START],
      ['AT', START],
      ['HR', wallPlus(START, 20)],
    ],
    { meals: [meal('AT', START, 0, 0, 1)] },
  );
  t.equal(full.totals.inBaseCurrency, '63.00');
  const half = calc(
    'HR',
    [
      ['HR', START],
      ['AT', START],
      ['HR', wallPlus(START, 10)],
    ],
    { meals: [meal('AT', START, 0, 1, 0)] },
  );
  t.equal(half.totals.inBaseCurrency, '31.50');
});

t.test(
  'meals: one lunch and one dinner a per diem; two lunches on a row of 1.5 cut the whole and the half (found by a law review, session 24)',
  async (t) => {
    // 34 h on one leg: a whole per diem and a half. Two lunches were had on two days, so each cuts a
    // different per diem: 30 x 0.7 + 15 x 0.7. Until session 24 both cut the whole one (45 - 18 = 27).
    const stops: [string, string][] = [
      ['HR', '2026-03-02T06:00'],
      ['HR', '2026-03-03T16:00'],
    ];
    const row = (m: ReturnType<typeof meal>) => calc('HR', stops, { meals: [m] }).perDiems[0]!;
    t.same(
      [row(meal('HR', '2026-03-02T06:00', 0, 2, 0)).amount, row(meal('HR', '2026-03-02T06:00', 0, 2, 0)).mealReduction],
      ['31.50', '13.50'],
    );
    t.equal(row(meal('HR', '2026-03-02T06:00', 0, 0, 2)).amount, '31.50', 'two dinners alike');
    t.equal(
      row(meal('HR', '2026-03-02T06:00', 0, 1, 1)).amount,
      '27.00',
      'a lunch and a dinner: both on the whole one (60 %), whole ones first',
    );
    t.equal(row(meal('HR', '2026-03-02T06:00', 0, 2, 2)).amount, '18.00', 'two of each: 60 % of both');
    t.equal(row(meal('HR', '2026-03-02T06:00', 0, 3, 3)).amount, '18.00', 'more than one of a kind a per diem cuts nothing more');
  },
);

t.test('meals: two lunches on an 81 h trip cut 30 % of two of its per diems (105 - 2 x 9 = 87)', async (t) => {
  const r = calc(
    'HR',
    [
      ['HR', START],
      ['HR', wallPlus(START, 81)],
    ],
    { meals: [meal('HR', START, 0, 2, 0)] },
  );
  t.equal(r.perDiems[0]!.amount, '87.00');
});

t.test('meals: a meal on a leg whose hours carry no unit of their own still cuts the trip’s per diem', async (t) => {
  // Per diems are counted over the whole trip; a provided lunch cuts 30 % whichever leg it falls on.
  const twoLegs = calc(
    'HR',
    [
      ['HR', '2026-05-04T08:00'],
      ['HR', '2026-05-04T12:00'],
      ['HR', '2026-05-04T22:00'],
    ],
    { meals: [meal('HR', '2026-05-04T08:00', 0, 1)] },
  );
  t.equal(twoLegs.totals.inBaseCurrency, '21.00', '14 h at home with a lunch on the first leg: 30 x 0.7');
  // teb.hr trip (1 foreign + 1 domestic) with a lunch before the border: 90 + 30 x 0.7.
  const teb = calc(
    'HR',
    [
      ['HR', '2026-05-04T06:00'],
      ['AT', '2026-05-04T11:00'],
      ['HR', '2026-05-05T15:00'],
      ['HR', '2026-05-05T20:30'],
    ],
    { meals: [meal('HR', '2026-05-04T06:00', 0, 1)] },
  );
  t.equal(teb.totals.inBaseCurrency, '111.00', 'teb.hr trip with a lunch on the first Croatian leg');
  // BA 10 h (short stay, counted with AT) with a lunch there: the one per diem at the AT rate less 30 %.
  const transit = calc(
    'HR',
    [
      ['HR', '2026-06-01T06:00'],
      ['BA', '2026-06-01T07:00'],
      ['AT', '2026-06-01T17:00'],
      ['HR', '2026-06-02T07:00'],
      ['HR', '2026-06-02T08:00'],
    ],
    { meals: [meal('BA', '2026-06-01T07:00', 0, 1)] },
  );
  t.equal(transit.totals.inBaseCurrency, '63.00', 'a lunch during a short stay: 90 x 0.7');
});

t.test('meals in a part of the trip with no per diem of its own cut the trip’s per diems (found by a law audit, session 22)', async (t) => {
  // 13 h: 7 h in AT earn no foreign per diem and top up the domestic count, so the trip's one per
  // diem is domestic. The lunch in AT was had in the hours that earned it: 30 x 0.7.
  const topUp = calc(
    'HR',
    [
      ['HR', '2026-05-04T06:00'],
      ['AT', '2026-05-04T09:00'],
      ['HR', '2026-05-04T16:00'],
      ['HR', '2026-05-04T19:00'],
    ],
    { meals: [meal('AT', '2026-05-04T09:00', 0, 1)] },
  );
  t.equal(topUp.totals.inBaseCurrency, '21.00', 'the top-up per diem takes the lunch had abroad');
  // 16 h, 13 h of it in AT: one foreign per diem and no domestic one. A lunch before the border.
  const before = calc(
    'HR',
    [
      ['HR', '2026-05-04T06:00'],
      ['AT', '2026-05-04T09:00'],
      ['HR', '2026-05-04T22:00'],
    ],
    { meals: [meal('HR', '2026-05-04T06:00', 0, 1)] },
  );
  t.equal(before.totals.inBaseCurrency, '63.00', 'the only per diem of the trip: 90 x 0.7');
  // teb.hr trip: 1 AT + 1 domestic. Three meals in AT: two cut the AT per diem (90 x 0.4 = 36),
  // the third the domestic one (30 x 0.7 = 21).
  const teb = calc(
    'HR',
    [
      ['HR', '2026-05-04T06:00'],
      ['AT', '2026-05-04T11:15'],
      ['HR', '2026-05-05T15:15'],
      ['HR', '2026-05-05T20:30'],
    ],
    { meals: [meal('AT', '2026-05-04T11:15', 0, 2, 1)] },
  );
  t.equal(teb.totals.inBaseCurrency, '57.00', 'two meals a per diem at most; the third cuts the other per diem');
  // Meals beyond two a per diem of the whole trip cut nothing more: never below 40 %.
  const many = calc(
    'HR',
    [
      ['HR', '2026-05-04T06:00'],
      ['HR', '2026-05-04T20:00'],
    ],
    { meals: [meal('HR', '2026-05-04T06:00', 0, 3, 3)] },
  );
  t.equal(many.totals.inBaseCurrency, '12.00', 'one per diem, six meals: 30 x 0.4');
});

t.test(
  'DST: hours are real, a 12-wall-hour trip on 29 Mar 2026 is 11 h (half); on 25 Oct 2026 11 h 30 wall is 12 h 30 (full)',
  async (t) => {
    const spring = calc('HR', [
      ['HR', '2026-03-29T00:00'],
      ['HR', '2026-03-29T12:00'],
    ]);
    t.equal(spring.perDiems[0]!.hours, '11');
    t.equal(spring.totals.inBaseCurrency, '15.00');
    const autumn = calc('HR', [
      ['HR', '2026-10-25T00:00'],
      ['HR', '2026-10-25T11:30'],
    ]);
    t.equal(autumn.perDiems[0]!.hours, '12.5');
    t.equal(autumn.totals.inBaseCurrency, '30.00');
  },
);

t.test('rate tables by date: NN 8/2006 before 8 Feb 2024 (AT 70), NN 16/2024 from it (AT 90)', async (t) => {
  const old = abroad('AT', 20, '2024-01-15T06:00');
  t.equal(old.totals.inBaseCurrency, '70.00');
  const fresh = abroad('AT', 20, '2024-02-08T06:00');
  t.equal(fresh.totals.inBaseCurrency, '90.00');
  const cz = abroad('CZ', 20, '2025-03-10T06:00');
  t.equal(cz.totals.inBaseCurrency, '80.00');
});

t.test('rate change within a trip: days before 8 Feb 2024 at the old rate, days from it at the new', async (t) => {
  // AT from 6 Feb 00:00 to 9 Feb 00:00: three 24 h blocks, on 6, 7 and 8 Feb -> 70 + 70 + 90.
  // perdiem-verified.md §1.2 "Effective-date changes: days before the change use the old rate".
  const r = calc('HR', [
    ['HR', '2024-02-05T23:00'],
    ['AT', '2024-02-06T00:00'],
    ['HR', '2024-02-09T00:00'],
    ['HR', '2024-02-09T01:00'],
  ]);
  t.strictSame(unitsBy(r), { AT: 3 });
  t.equal(r.totals.inBaseCurrency, '230.00');
});

t.test('unavailable: a listed country missing from our partial NN 16/2024 copy (DE) is refused, never 50 USD', async (t) => {
  throwsDomain(t, () => abroad('DE', 20), 'PER_DIEM_RATE_UNAVAILABLE', ['stops[1].countryCode']);
  throwsDomain(t, () => abroad('DE', 10), 'PER_DIEM_RATE_UNAVAILABLE', ['stops[1].countryCode'], 'a short stay with no long one');
  throwsDomain(
    t,
    () =>
      calc('HR', [
        ['HR', START],
        ['US', START, 'America/New_York'],
        ['HR', wallPlus(START, 30)],
      ]),
    'PER_DIEM_RATE_UNAVAILABLE',
    ['stops[1].countryCode'],
    'US (not in the copy) is not given the * row',
  );
});

t.test('complete table: a country not listed gets the 50 USD `*` row, converted at the HNB rate', async (t) => {
  const tables = tablesOf([
    ...csvVersions().filter((v) => v.law !== 'HR' || v.validFrom !== '2024-02-08'),
    version('HR', '2024-02-08', { AT: ['90', 'EUR'], '*': ['50', 'USD'] }),
  ]);
  // HR 06:00 CEST (04:00Z) -> US 02:00 New York (06:00Z) -> HR next day 08:00 (06:00Z) -> 10:00: 28 h, 24 h abroad.
  const r = calc(
    'HR',
    [
      ['HR', '2026-06-01T06:00'],
      ['US', '2026-06-01T02:00', 'America/New_York'],
      ['HR', '2026-06-02T08:00'],
      ['HR', '2026-06-02T10:00'],
    ],
    { tables, book: hnbBook() },
  );
  const us = r.perDiems.find((row) => row.countryCode === 'US')!;
  t.equal(us.hours, '24');
  t.equal(us.units, '1');
  t.equal(us.rate, '50.00');
  t.equal(us.currencyCode, 'USD');
  t.equal(us.amount, '50.00');
  t.equal(us.exchangeRate, '1.10');
  t.equal(us.exchangeRateSource, 'HNB');
  t.equal(us.amountInBaseCurrency, '45.45'); // 50 / 1.10 = 45.4545…
  t.strictSame(r.totals.byCurrency, { USD: '50.00' });
  t.equal(r.totals.inBaseCurrency, '45.45');
});

t.test('a listed USD rate (AR 55 USD) is converted; EUR rows carry no exchange rate', async (t) => {
  const r = abroad('AR', 20);
  const ar = r.perDiems.find((row) => row.countryCode === 'AR')!;
  t.equal(ar.amount, '55.00');
  t.equal(ar.currencyCode, 'USD');
  t.equal(ar.amountInBaseCurrency, '50.00');
  const at = abroad('AT', 20).perDiems.find((row) => row.countryCode === 'AT')!;
  t.equal(at.exchangeRate, null);
  t.equal(at.amountInBaseCurrency, '90.00');
});

t.test('exchange-rate date ([U] in the law; documented decision: the HNB list of the row’s departure day)', async (t) => {
  const book = datedBook('HNB', 'ForeignPerBase', {
    '2026-05-29': { USD: '1.00' },
    '2026-06-01': { USD: '1.10' },
    '2026-06-02': { USD: '1.25' },
  });
  const r = calc(
    'HR',
    [
      ['HR', '2026-06-01T06:00'],
      ['AR', '2026-06-01T01:00'],
      ['HR', '2026-06-02T02:00'],
    ],
    { book },
  );
  const ar = r.perDiems.find((row) => row.countryCode === 'AR')!;
  t.equal(ar.exchangeRateDate, '2026-06-01');
  t.equal(ar.amountInBaseCurrency, '50.00'); // 55 / 1.10
});

t.test('a 2026 trip: Zagreb -> Vienna and Prague -> Zagreb over three days', async (t) => {
  // HR 2 h, AT 30 h, CZ 28 h, HR 3 h = 63 h -> 2 + 15 h -> 3. Abroad 58 h -> 2 + 10 h -> 2.5.
  // Blocks: after AT (30 h) 1; after CZ (58 h) 2.5 -> CZ 1.5. Domestic 3 - 2.5 = 0.5.
  const r = calc('HR', [
    ['HR', '2026-09-14T06:00'],
    ['AT', '2026-09-14T08:00'],
    ['CZ', '2026-09-15T14:00'],
    ['HR', '2026-09-16T18:00'],
    ['HR', '2026-09-16T21:00'],
  ]);
  t.strictSame(unitsBy(r), { AT: 1, CZ: 1.5, HR: 0.5 });
  t.equal(r.totals.inBaseCurrency, '225.00'); // 90 + 1.5 x 80 + 15
});

t.test('a trip over 30 days is computed and flagged for review (the law knows at most 30 days; June, no clock change)', async (t) => {
  const trip = (hours: number) =>
    calc('HR', [
      ['HR', '2026-06-01T06:00'],
      ['AT', '2026-06-01T08:00'],
      ['HR', wallPlus('2026-06-01T08:00', hours)],
      ['HR', wallPlus('2026-06-01T08:00', hours + 2)],
    ]);
  const long = trip(35 * 24);
  t.equal(long.totals.inBaseCurrency, '3150.00', '35 foreign per diems at 90');
  t.same(
    long.notices.map((n) => n.code),
    ['TRIP_OVER_30_DAYS'],
  );
  t.same(trip(30 * 24 - 4).notices, [], '30 days from the first stop to the last: no notice');
  t.same(trip(30 * 24 - 3).notices.length, 1, 'an hour past 30 days: flagged');
  // Thirty days of the calendar across the autumn clock change (721 elapsed hours): not flagged.
  const autumn = calc('HR', [
    ['HR', '2026-10-10T06:00'],
    ['AT', '2026-10-10T08:00'],
    ['HR', '2026-11-09T04:00'],
    ['HR', '2026-11-09T06:00'],
  ]);
  t.same(autumn.notices, [], '30 wall-clock days over the clock change');
  // Ending abroad: counted on the first stop's clock, not shortened or lengthened by the zones.
  const endsAbroad = (country: string, end: string) =>
    calc('HR', [
      ['HR', '2026-06-01T06:00'],
      [country, '2026-06-02T06:00'],
      [country, end],
    ]).notices.length;
  t.equal(endsAbroad('AR', '2026-07-01T06:00'), 1, 'Buenos Aires 06:00 is 11:00 in Zagreb: 30 days and 5 hours');
  t.equal(endsAbroad('FI', '2026-07-01T06:30'), 0, 'Helsinki 06:30 is 05:30 in Zagreb: under 30 days');
});

t.test('meals on one stay abroad split over several legs: the stay shares them (found by a review, session 14)', async (t) => {
  // 37 h in AT over three legs: a lunch keyed to the 3-hour leg, which holds no per diem, cuts the
  // stay's whole per diem, as on the same trip recorded as one leg (90 x 0.7 + 90 = 153).
  const split = calc(
    'HR',
    [
      ['HR', '2026-03-02T06:00'],
      ['AT', '2026-03-02T08:00'],
      ['AT', '2026-03-03T08:00'],
      ['AT', '2026-03-03T11:00'],
      ['HR', '2026-03-03T21:00'],
      ['HR', '2026-03-03T22:00'],
    ],
    { meals: [meal('AT', '2026-03-03T08:00', 0, 1, 0)] },
  );
  const oneLeg = calc(
    'HR',
    [
      ['HR', '2026-03-02T06:00'],
      ['AT', '2026-03-02T08:00'],
      ['HR', '2026-03-03T21:00'],
      ['HR', '2026-03-03T22:00'],
    ],
    { meals: [meal('AT', '2026-03-02T08:00', 0, 1, 0)] },
  );
  t.equal(split.totals.inBaseCurrency, '153.00');
  t.equal(oneLeg.totals.inBaseCurrency, '153.00');
  // Three meals on the leg of the half: two cut the half (45 x 0.4 = 18), the third the whole one (63).
  const three = calc(
    'HR',
    [
      ['HR', '2026-03-02T06:00'],
      ['AT', '2026-03-02T08:00'],
      ['AT', '2026-03-03T08:00'],
      ['HR', '2026-03-03T18:00'],
      ['HR', '2026-03-03T19:00'],
    ],
    { meals: [meal('AT', '2026-03-03T08:00', 0, 2, 1)] },
  );
  t.same(
    three.perDiems.map((r) => r.amount),
    ['0.00', '63.00', '18.00', '15.00'],
  );
});
