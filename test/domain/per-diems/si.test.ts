// Slovenia (Uredba o davčni obravnavi povračil stroškov …, UL RS 162/2022; Uredba o povračilu
// stroškov za službena potovanja v tujino, annex from 1 Jan 2021), checked against
// ../shared/research/perdiem-verified.md §2: 24-hour blocks; "nad X do Y" = X < t <= Y;
// domestic 27.81 / 13.88 / 9.69 EUR; foreign 100 / 75 / 25 % of the country's rate; per-country
// counts capped at the whole trip's count.
import t from 'tap';
import { calc, datedBook, hm, meal, throwsDomain, unitsBy, wallPlus } from './helpers.js';

const START = '2026-05-04T06:00';

const domestic = (hours: number, meals?: ReturnType<typeof meal>[]) =>
  calc(
    'SI',
    [
      ['SI', START],
      ['SI', wallPlus(START, hours)],
    ],
    { meals },
  );

/** Straight abroad at START (a 0 h Slovenian leg: the border), `hours` in `country`, back. */
const abroad = (country: string, hours: number, meals?: ReturnType<typeof meal>[]) =>
  calc(
    'SI',
    [
      ['SI', START],
      [country, START],
      ['SI', wallPlus(START, hours)],
    ],
    { meals },
  );

t.test('domestic: band edges one minute either side of 6, 8, 12 and 24 h', async (t) => {
  const cases: [number, string][] = [
    [hm(5, 59), '0.00'],
    [hm(6), '0.00'], // "nad 6": exactly 6 h gives nothing
    [hm(6, 1), '9.69'],
    [hm(7, 59), '9.69'],
    [hm(8), '9.69'],
    [hm(8, 1), '13.88'],
    [hm(11, 59), '13.88'],
    [hm(12), '13.88'], // "nad 8 do 12": 12 h is the 13.88 band
    [hm(12, 1), '27.81'],
    [hm(23, 59), '27.81'],
    [hm(24), '27.81'],
    [hm(24, 1), '27.81'],
    [hm(30), '27.81'],
    [hm(30, 1), '37.50'], // 27.81 + 9.69
    [hm(36, 1), '55.62'], // 24 + 12 h 01 -> 27.81 + 27.81
    [hm(32, 1), '41.69'], // 24 + 8 h 01 -> 27.81 + 13.88
    [hm(48), '55.62'],
  ];
  for (const [hours, amount] of cases) {
    const r = domestic(hours);
    t.equal(r.totals.inBaseCurrency, amount, `${hours} h`);
    t.equal(r.perDiems[0]!.amount, amount, `${hours} h row`);
  }
});

t.test('domestic: breakfast in the lodging bill cuts 10 % (27.81 -> 25.03) and 15 % (13.88 -> 11.80); none at 6–8 h', async (t) => {
  t.equal(domestic(20, [meal('SI', START, 1)]).totals.inBaseCurrency, '25.03'); // 27.81 x 0.9 = 25.029
  t.equal(domestic(10, [meal('SI', START, 1)]).totals.inBaseCurrency, '11.80'); // 13.88 x 0.85 = 11.798
  t.equal(domestic(7, [meal('SI', START, 1)]).totals.inBaseCurrency, '9.69');
});

t.test('domestic lunch (documented decision, the law sources give only the breakfast cut): 35 % over 12 h', async (t) => {
  t.equal(domestic(20, [meal('SI', START, 0, 1)]).totals.inBaseCurrency, '18.08'); // 27.81 x 0.65 = 18.0765
});

t.test('foreign: band edges one minute either side of 6, 8, 14 and 24 h (AT 55 EUR)', async (t) => {
  const cases: [number, string][] = [
    [hm(5, 59), '0.00'],
    [hm(6), '0.00'],
    [hm(6, 1), '13.75'], // 25 %
    [hm(7, 59), '13.75'],
    [hm(8), '13.75'],
    [hm(8, 1), '41.25'], // 75 %
    [hm(13, 59), '41.25'],
    [hm(14), '41.25'],
    [hm(14, 1), '55.00'],
    [hm(23, 59), '55.00'],
    [hm(24), '55.00'],
    [hm(30), '55.00'],
    [hm(30, 1), '68.75'],
    [hm(32, 1), '96.25'],
    [hm(38, 1), '110.00'],
  ];
  for (const [hours, amount] of cases) t.equal(abroad('AT', hours).totals.inBaseCurrency, amount, `${hours} h in AT`);
});

t.test('foreign rates: HR and HU 40 EUR (HU flagged: two sources), BE 63 EUR', async (t) => {
  t.equal(abroad('HR', 20).totals.inBaseCurrency, '40.00');
  t.equal(abroad('HU', 20).totals.inBaseCurrency, '40.00');
  t.equal(abroad('BE', 20).totals.inBaseCurrency, '63.00');
  t.equal(abroad('HR', 10).totals.inBaseCurrency, '30.00');
});

t.test('foreign meals over 14 h: breakfast -10 %, lunch -35 %, dinner -35 %, all three 20 % paid', async (t) => {
  t.equal(abroad('AT', 20, [meal('AT', START, 1)]).totals.inBaseCurrency, '49.50');
  t.equal(abroad('AT', 20, [meal('AT', START, 0, 1)]).totals.inBaseCurrency, '35.75');
  t.equal(abroad('AT', 20, [meal('AT', START, 0, 0, 1)]).totals.inBaseCurrency, '35.75');
  t.equal(abroad('AT', 20, [meal('AT', START, 0, 1, 1)]).totals.inBaseCurrency, '16.50'); // 55 x 0.30
  t.equal(abroad('AT', 20, [meal('AT', START, 1, 1, 1)]).totals.inBaseCurrency, '11.00');
});

t.test('foreign meals over 8–14 h: -15 % / -40 % / -40 % of the 75 % amount; lunch and dinner leave 20 %', async (t) => {
  t.equal(abroad('AT', 10, [meal('AT', START, 1)]).totals.inBaseCurrency, '35.06'); // 41.25 x 0.85 = 35.0625
  t.equal(abroad('AT', 10, [meal('AT', START, 0, 1)]).totals.inBaseCurrency, '24.75'); // 41.25 x 0.60
  t.equal(abroad('AT', 10, [meal('AT', START, 0, 1, 1)]).totals.inBaseCurrency, '8.25'); // 20 %
  // Three meals on a two-meal band ([U]): 20 % of the band amount.
  t.equal(abroad('AT', 10, [meal('AT', START, 1, 1, 1)]).totals.inBaseCurrency, '8.25');
  // Breakfast and lunch: both assumed meals of the band provided (documented decision: 20 %).
  t.equal(abroad('AT', 10, [meal('AT', START, 1, 1, 0)]).totals.inBaseCurrency, '8.25');
});

t.test('foreign meals over 6–8 h ([U]): any meal leaves 20 % of the band amount', async (t) => {
  t.equal(abroad('AT', 7, [meal('AT', START, 0, 1)]).totals.inBaseCurrency, '2.75'); // 13.75 x 0.2
  t.equal(abroad('AT', 7, [meal('AT', START, 1)]).totals.inBaseCurrency, '2.75');
});

t.test('foreign meals over two days: each per diem takes its own day’s meals (two breakfasts: 2 x 55 x 0.9)', async (t) => {
  t.equal(abroad('AT', 48, [meal('AT', START, 2)]).totals.inBaseCurrency, '99.00');
});

t.test('meals keyed to the leg of the partial per diem cut the partial, by its own band', async (t) => {
  // 34 h in AT: a whole per diem (55) on the first leg, over 8 to 14 h (41.25) on the second.
  const stops: [string, string][] = [
    ['AT', '2026-03-02T08:00'],
    ['AT', '2026-03-03T08:00'],
    ['AT', '2026-03-03T18:00'],
  ];
  const second = (b: number, l: number) => calc('SI', stops, { meals: [meal('AT', '2026-03-03T08:00', b, l)] }).totals.inBaseCurrency;
  t.equal(second(0, 1), '79.75', 'a lunch cuts 40 % of the 75 % amount: 55 + 41.25 x 0.6');
  t.equal(second(1, 1), '63.25', 'two meals on over 8 to 14 h are all food: 55 + 41.25 x 0.2');
  const first = calc('SI', stops, { meals: [meal('AT', '2026-03-02T08:00', 0, 1)] }).totals.inBaseCurrency;
  t.equal(first, '77.00', 'keyed to the first leg it cuts the whole one: 55 x 0.65 + 41.25');
  // Two lunches on the second leg: one a per diem, so the second falls on the whole one.
  t.equal(second(0, 2), '60.50', '55 x 0.65 + 41.25 x 0.6');
});

t.test('meals on a leg that carries no per diem of its own still cut the per diem of that time', async (t) => {
  // 14 h at home over two legs, breakfast in the lodging bill on the first: 27.81 x 0.9.
  const home = calc(
    'SI',
    [
      ['SI', '2026-05-04T08:00'],
      ['SI', '2026-05-04T12:00'],
      ['SI', '2026-05-04T22:00'],
    ],
    { meals: [meal('SI', '2026-05-04T08:00', 1)] },
  );
  t.equal(home.totals.inBaseCurrency, '25.03', 'domestic, breakfast on the first leg');
  // 20 h in AT over two legs (Vienna, then Graz), lunch on the first: 55 x 0.65.
  const at = calc(
    'SI',
    [
      ['SI', '2026-05-04T06:00'],
      ['AT', '2026-05-04T06:00'],
      ['AT', '2026-05-04T12:00'],
      ['SI', '2026-05-05T02:00'],
    ],
    { meals: [meal('AT', '2026-05-04T06:00', 0, 1)] },
  );
  t.equal(at.totals.inBaseCurrency, '35.75', 'abroad, lunch on the first of two AT legs');
});

t.test('several countries: per country, so AT 10 h + DE 2 h + AT 10 h is AT 20 h (100 %)', async (t) => {
  // spica.si: per diems are computed per country, capped at the whole trip's count (22 h -> 1).
  const r = calc('SI', [
    ['SI', '2026-05-04T06:00'],
    ['AT', '2026-05-04T06:00'],
    ['DE', '2026-05-04T16:00'],
    ['AT', '2026-05-04T18:00'],
    ['SI', '2026-05-05T04:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '55.00', 'AT 20 h in all', {});
});

t.test('mixed trip: home 2 h + AT 20 h + home 2 h = 24 h -> one per diem, the foreign one', async (t) => {
  const r = calc('SI', [
    ['SI', '2026-05-04T06:00'],
    ['AT', '2026-05-04T08:00'],
    ['SI', '2026-05-05T04:00'],
    ['SI', '2026-05-05T06:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '55.00');
  t.strictSame(unitsBy(r), { AT: 1 });
});

t.test('mixed trip, cap: home 8 h (9.69) + AT 20 h (55) = 28 h -> one per diem; the latest, lowest (domestic) goes', async (t) => {
  const r = calc('SI', [
    ['SI', '2026-05-04T06:00'],
    ['AT', '2026-05-04T10:00'],
    ['SI', '2026-05-05T06:00'],
    ['SI', '2026-05-05T10:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '55.00');
});

t.test('mixed trip, no cap needed: home 10 h (13.88) + HR 24 h (40) = 34 h -> 2 per diems', async (t) => {
  const r = calc('SI', [
    ['SI', '2026-05-04T06:00'],
    ['HR', '2026-05-04T11:00'],
    ['SI', '2026-05-05T11:00'],
    ['SI', '2026-05-05T16:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '53.88');
});

t.test('several countries: per country (AT 20 h = 55, HR 20 h = 40), within the trip’s 2 per diems', async (t) => {
  const r = calc('SI', [
    ['SI', '2026-05-04T06:00'],
    ['AT', '2026-05-04T07:00'],
    ['HR', '2026-05-05T03:00'],
    ['SI', '2026-05-05T23:00'],
    ['SI', '2026-05-06T00:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '95.00');
});

t.test('several countries, cap: AT 10 h (41.25) and HR 10 h (30) in a 20 h trip -> one; the latest, lowest (HR) goes', async (t) => {
  const r = calc('SI', [
    ['SI', '2026-05-04T06:00'],
    ['AT', '2026-05-04T06:00'],
    ['HR', '2026-05-04T16:00'],
    ['SI', '2026-05-05T02:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '41.25');
});

t.test('cap [U]: home 7 h (9.69) around AT 7 h (13.75) = 14 h -> one per diem; the latest, lowest (domestic) goes', async (t) => {
  // perdiem-verified.md §2.2: "keep the per diems in chronological order up to the cap, and drop
  // the latest, lowest partial one first": the domestic per diem ends last and is the lower amount.
  const r = calc('SI', [
    ['SI', '2026-05-04T06:00'],
    ['AT', '2026-05-04T08:00'],
    ['SI', '2026-05-04T15:00'],
    ['SI', '2026-05-04T20:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '13.75', 'one per diem, AT 25 %', {});
});

t.test('cap [U]: home 36 h 01 (27.81 + 27.81) and BE 32 h 01 (63 + 47.25) = 68 h 02 -> 3 per diems; the latest, lowest goes', async (t) => {
  // Four per diems over a cap of three. The domestic remainder (27.81) ends last and is the lowest
  // amount: dropping it leaves 27.81 + 63 + 47.25 = 138.06. Dropping BE's 75 % leaves 118.62.
  const r = calc('SI', [
    ['SI', '2026-05-04T00:00'],
    ['BE', '2026-05-05T06:00'],
    ['SI', '2026-05-06T14:01'],
    ['SI', '2026-05-06T20:02'],
  ]);
  t.equal(r.totals.inBaseCurrency, '138.06', 'the domestic remainder goes', {});
});

t.test('USD rates: JP 100 USD at the ECB rate of the last day of the trip', async (t) => {
  const book = datedBook('ECB', 'ForeignPerBase', { '2026-06-01': { USD: '1.10' }, '2026-06-02': { USD: '1.25' } });
  // SI 08:00 CEST (06:00Z) = JP 15:00; back at SI 08:00 next day: 24 h in JP.
  const r = calc(
    'SI',
    [
      ['SI', '2026-06-01T08:00'],
      ['JP', '2026-06-01T15:00'],
      ['SI', '2026-06-02T08:00'],
    ],
    { book },
  );
  const jp = r.perDiems.find((row) => row.countryCode === 'JP')!;
  t.equal(jp.hours, '24');
  t.equal(jp.amount, '100.00');
  t.equal(jp.currencyCode, 'USD');
  t.equal(jp.exchangeRateDate, '2026-06-02');
  t.equal(jp.exchangeRateSource, 'ECB');
  t.equal(jp.amountInBaseCurrency, '80.00'); // 100 / 1.25
  t.equal(r.totals.inBaseCurrency, '80.00');
});

t.test('unavailable: US and GB are not in the retrieved annex; refused, never guessed', async (t) => {
  throwsDomain(t, () => abroad('GB', 20), 'PER_DIEM_RATE_UNAVAILABLE', ['stops[1].countryCode']);
  throwsDomain(
    t,
    () =>
      calc('SI', [
        ['SI', START],
        ['US', START, 'America/Chicago'],
        ['SI', wallPlus(START, 30)],
      ]),
    'PER_DIEM_RATE_UNAVAILABLE',
    ['stops[1].countryCode'],
  );
});

t.test('DST: 13 wall hours on 29 Mar 2026 are 12 h (13.88); 11 h 30 wall on 25 Oct 2026 are 12 h 30 (27.81)', async (t) => {
  const spring = calc('SI', [
    ['SI', '2026-03-29T00:00'],
    ['SI', '2026-03-29T13:00'],
  ]);
  t.equal(spring.perDiems[0]!.hours, '12');
  t.equal(spring.totals.inBaseCurrency, '13.88');
  const autumn = calc('SI', [
    ['SI', '2026-10-25T00:00'],
    ['SI', '2026-10-25T11:30'],
  ]);
  t.equal(autumn.perDiems[0]!.hours, '12.5');
  t.equal(autumn.totals.inBaseCurrency, '27.81');
  // Abroad: 15 wall hours in AT on 29 Mar are 14 h (75 %), not over 14 h.
  const foreign = calc('SI', [
    ['SI', '2026-03-29T00:00'],
    ['AT', '2026-03-29T00:00'],
    ['SI', '2026-03-29T15:00'],
  ]);
  t.equal(foreign.totals.inBaseCurrency, '41.25');
});

t.test('a 2026 trip: Ljubljana -> Vienna (2 days) -> Zagreb -> Ljubljana', async (t) => {
  // SI 1 h, AT 40 h (1 + 16 h -> 100 %), HR 9 h (75 %), SI 2 h = 52 h -> 2 + 4 h -> cap 2.
  // Items: AT 55, AT 55, HR 30 -> three over a cap of two: the partial HR goes.
  const r = calc('SI', [
    ['SI', '2026-11-02T06:00'],
    ['AT', '2026-11-02T07:00'],
    ['HR', '2026-11-03T23:00'],
    ['SI', '2026-11-04T08:00'],
    ['SI', '2026-11-04T10:00'],
  ]);
  t.equal(r.totals.inBaseCurrency, '110.00');
});
