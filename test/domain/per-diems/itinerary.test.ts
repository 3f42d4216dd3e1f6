// The itinerary every law shares: wall-clock stops in their countries' zones become real elapsed
// time (DST days of 23 and 25 h), CZ and SK rows are cut at the law country's midnight, and bad
// input is refused with VALIDATION_FAILED keyed by field.
import t from 'tap';
import { calc, datedBook, meal, paid, throwsDomain, type S } from './helpers.js';

t.test('DST: a 24-wall-hour leg over the spring change is 23 real hours, over the autumn change 25', async (t) => {
  const spring = calc('HR', [
    ['HR', '2026-03-28T12:00'],
    ['HR', '2026-03-29T12:00'],
  ]).perDiems[0]!;
  t.equal(spring.hours, '23');
  t.equal(spring.departureTimeUtc, '2026-03-28T11:00:00Z');
  t.equal(spring.arrivalTimeUtc, '2026-03-29T10:00:00Z');
  t.equal(spring.departureTime, '2026-03-28T12:00');
  t.equal(spring.arrivalTime, '2026-03-29T12:00');
  const autumn = calc('HR', [
    ['HR', '2026-10-24T12:00'],
    ['HR', '2026-10-25T12:00'],
  ]).perDiems[0]!;
  t.equal(autumn.hours, '25');
  t.equal(autumn.departureTimeUtc, '2026-10-24T10:00:00Z');
  t.equal(autumn.arrivalTimeUtc, '2026-10-25T11:00:00Z');
});

t.test('DST (documented decision): a skipped wall time is read as summer time, a repeated one as the earlier', async (t) => {
  const skipped = calc('HR', [
    ['HR', '2026-03-29T02:30'],
    ['HR', '2026-03-29T14:30'],
  ]).perDiems[0]!;
  t.equal(skipped.departureTimeUtc, '2026-03-29T01:30:00Z');
  t.equal(skipped.hours, '11');
  const repeated = calc('HR', [
    ['HR', '2026-10-25T02:30'],
    ['HR', '2026-10-25T14:30'],
  ]).perDiems[0]!;
  t.equal(repeated.departureTimeUtc, '2026-10-25T00:30:00Z');
  t.equal(repeated.hours, '13');
});

t.test('each stop’s time is read in its own country’s zone (Bratislava 08:00 -> London 08:00 is 1 h)', async (t) => {
  const r = calc('SK', [
    ['SK', '2026-06-01T08:00'],
    ['GB', '2026-06-01T08:00'],
    ['SK', '2026-06-01T20:00'],
  ]);
  t.strictSame(
    r.perDiems.map((row) => [row.countryCode, row.hours, row.departureTimeUtc]),
    [
      ['SK', '1', '2026-06-01T06:00:00Z'],
      ['GB', '11', '2026-06-01T07:00:00Z'],
    ],
  );
});

t.test('CZ and SK rows are cut at the law country’s midnight, shown on the leg country’s clock', async (t) => {
  // Bratislava midnight = 22:00Z = 23:00 in London.
  const r = calc('SK', [
    ['SK', '2026-06-01T20:00'],
    ['GB', '2026-06-01T20:00'],
    ['SK', '2026-06-02T10:00'],
  ]);
  const gb = r.perDiems.filter((row) => row.countryCode === 'GB');
  t.strictSame(
    gb.map((row) => [row.departureTime, row.departureTimeUtc, row.hours, row.amount]),
    [
      ['2026-06-01T20:00', '2026-06-01T19:00:00Z', '3', '9.25'], // 25 % of 37 GBP
      ['2026-06-01T23:00', '2026-06-01T22:00:00Z', '10', '18.50'], // 50 %
    ],
  );
  t.equal(gb[0]!.arrivalTime, '2026-06-01T23:00');
});

t.test('a US stop names its zone: required, checked against the country, and used', async (t) => {
  const trip = (zone?: string): S[] => [
    ['CZ', '2026-06-01T08:00'],
    zone === undefined ? ['US', '2026-06-01T01:00'] : ['US', '2026-06-01T01:00', zone],
    ['CZ', '2026-06-02T08:00'],
  ];
  throwsDomain(t, () => calc('CZ', trip()), 'VALIDATION_FAILED', ['stops[1].timeZone'], 'no zone');
  throwsDomain(t, () => calc('CZ', trip('Europe/Paris')), 'VALIDATION_FAILED', ['stops[1].timeZone'], 'not a US zone');
  throwsDomain(t, () => calc('CZ', trip('Mars/Olympus')), 'VALIDATION_FAILED', ['stops[1].timeZone'], 'no such zone');
  // Chicago 01:00 CDT = 06:00Z = Prague 08:00: 24 h in the US, cut at Prague midnight (17:00 Chicago).
  const r = calc('CZ', trip('America/Chicago'));
  const us = r.perDiems.filter((row) => row.countryCode === 'US');
  t.strictSame(
    us.map((row) => [row.departureTime, row.hours, row.units, row.amount]),
    [
      ['2026-06-01T01:00', '16', '0.6667', '46.67'],
      ['2026-06-01T17:00', '8', '0.3333', '23.33'],
    ],
  );
  t.strictSame(r.totals.byCurrency, { USD: '70.00' });
});

t.test('validation: fewer than 2 stops, or more than 200', async (t) => {
  throwsDomain(t, () => calc('HR', []), 'VALIDATION_FAILED', ['stops'], 'no stops');
  throwsDomain(t, () => calc('HR', [['HR', '2026-05-04T08:00']]), 'VALIDATION_FAILED', ['stops'], 'one stop');
  const hourly = (n: number): S[] =>
    Array.from({ length: n }, (_, i) => ['HR', new Date(Date.UTC(2026, 4, 4, 0) + i * 3_600_000).toISOString().slice(0, 16)] as const);
  throwsDomain(t, () => calc('HR', hourly(201)), 'VALIDATION_FAILED', ['stops'], '201 stops');
  // 200 stops an hour apart: 199 h = 8 x 24 h + 7 h -> 8 per diems.
  const r = calc('HR', hourly(200));
  t.equal(r.perDiems.length, 199);
  t.equal(r.totals.inBaseCurrency, '240.00');
});

t.test('validation: an itinerary spans at most 366 days', async (t) => {
  // 2026-01-01 to 2027-01-02 is 366 days (winter time at both ends: wall time is real time).
  for (const law of ['HR', 'SI', 'CZ', 'SK'] as const) {
    const r = calc(law, [
      [law, '2026-01-01T08:00'],
      [law, '2027-01-02T08:00'],
    ]);
    t.ok(r.perDiems.length > 0, `${law}: a year and a day is computed`);
    throwsDomain(
      t,
      () =>
        calc(law, [
          [law, '2026-01-01T08:00'],
          [law, '2027-01-02T08:01'],
        ]),
      'VALIDATION_FAILED',
      ['stops[1].time'],
      `${law}: a minute more is refused, keyed by the last stop`,
    );
  }
  // Once a stack overflow (a 500) and, for a century, seconds of CPU.
  throwsDomain(
    t,
    () =>
      calc('HR', [
        ['HR', '0001-01-01T06:00'],
        ['AT', '2026-01-01T06:00'],
        ['HR', '9999-12-31T06:00'],
      ]),
    'VALIDATION_FAILED',
    ['stops[2].time'],
    'year 1 to 9999',
  );
});

t.test('validation: time goes forwards (equal times are allowed)', async (t) => {
  throwsDomain(
    t,
    () =>
      calc('HR', [
        ['HR', '2026-05-04T08:00'],
        ['AT', '2026-05-04T10:00'],
        ['HR', '2026-05-04T09:00'],
      ]),
    'VALIDATION_FAILED',
    ['stops[2].time'],
  );
  // 10:00 in Vienna then 09:30 in London is 30 min later, not earlier.
  t.doesNotThrow(() =>
    calc('SK', [
      ['SK', '2026-05-04T08:00'],
      ['AT', '2026-05-04T10:00'],
      ['GB', '2026-05-04T09:30'],
      ['SK', '2026-05-04T20:00'],
    ]),
  );
  t.doesNotThrow(() =>
    calc('HR', [
      ['HR', '2026-05-04T08:00'],
      ['HR', '2026-05-04T08:00'],
      ['HR', '2026-05-04T09:00'],
    ]),
  );
});

t.test('validation: countries and times, every problem at once', async (t) => {
  throwsDomain(
    t,
    () =>
      calc('HR', [
        ['HR', '2026-05-04T08:00'],
        ['XX', '2026-05-04T09:00'],
        ['HR', '2026-05-04T20:00'],
      ]),
    'VALIDATION_FAILED',
    ['stops[1].countryCode'],
  );
  throwsDomain(
    t,
    () =>
      calc('HR', [
        ['HR', '2026-05-04T08:00'],
        ['at', '2026-05-04T09:00'],
        ['HR', '2026-05-04T20:00'],
      ]),
    'VALIDATION_FAILED',
    ['stops[1].countryCode'],
  );
  for (const bad of ['2026-05-04 08:00', '2026-02-30T08:00', '2026-05-04T24:00', '2026-05-04T08:00+02:00', '2026-05-04T08:00Z', '']) {
    throwsDomain(
      t,
      () =>
        calc('HR', [
          ['HR', bad],
          ['HR', '2026-05-04T20:00'],
        ]),
      'VALIDATION_FAILED',
      ['stops[0].time'],
      `time ${JSON.stringify(bad)}`,
    );
  }
  throwsDomain(
    t,
    () =>
      calc('HR', [
        ['XX', '2026-05-04T08:00'],
        ['HR', 'noon'],
        ['US', '2026-05-04T20:00'],
      ]),
    'VALIDATION_FAILED',
    ['stops[0].countryCode', 'stops[1].time', 'stops[2].timeZone'],
  );
  throwsDomain(
    t,
    () =>
      calc(
        'CZ',
        [
          ['CZ', '2026-05-04T08:00'],
          ['CZ', '2026-05-04T20:00'],
        ],
        { advancePaymentDate: '2026-13-01' },
      ),
    'VALIDATION_FAILED',
    ['advancePaymentDate'],
  );
});

t.test('validation: meals are keyed by a row’s (countryCode, departureTime)', async (t) => {
  const trip: S[] = [
    ['HR', '2026-05-04T08:00'],
    ['HR', '2026-05-04T22:00'],
  ];
  throwsDomain(
    t,
    () => calc('HR', trip, { meals: [meal('HR', '2026-05-04T09:00', 0, 1)] }),
    'VALIDATION_FAILED',
    ['meals[0]'],
    'no such row',
  );
  throwsDomain(
    t,
    () => calc('HR', trip, { meals: [meal('AT', '2026-05-04T08:00', 0, 1)] }),
    'VALIDATION_FAILED',
    ['meals[0]'],
    'wrong country',
  );
  throwsDomain(
    t,
    () => calc('HR', trip, { meals: [meal('HR', '2026-05-04T08:00', 0, 1), meal('HR', '2026-05-04T08:00', 0, 0, 1)] }),
    'VALIDATION_FAILED',
    ['meals[1]'],
    'a row twice',
  );
  throwsDomain(
    t,
    () =>
      calc('HR', trip, { meals: [{ countryCode: 'HR', departureTime: '2026-05-04T08:00', lunchesProvided: -1, dinnersProvided: 1.5 }] }),
    'VALIDATION_FAILED',
    ['meals[0].lunchesProvided', 'meals[0].dinnersProvided'],
    'counts',
  );
  throwsDomain(
    t,
    () => calc('HR', trip, { meals: [{ countryCode: 'HR', departureTime: 'morning', lunchesProvided: 1 }] }),
    'VALIDATION_FAILED',
    ['meals[0].departureTime'],
    'departure time',
  );
  // Seconds are part of the wall time; 08:00:00 is the row 08:00.
  const r = calc('HR', trip, { meals: [meal('HR', '2026-05-04T08:00:00', 0, 1)] });
  t.equal(r.perDiems[0]!.lunchesProvided, 1);
  t.equal(r.perDiems[0]!.amount, '21.00');
  const s = calc('HR', [
    ['HR', '2026-05-04T08:00:30'],
    ['HR', '2026-05-04T20:00:30'],
  ]);
  t.equal(s.perDiems[0]!.departureTime, '2026-05-04T08:00:30');
  t.equal(s.perDiems[0]!.hours, '12');
});

t.test('meals on a CZ/SK day row are keyed by that row’s departure (midnight)', async (t) => {
  const trip: S[] = [
    ['SK', '2026-05-04T20:00'],
    ['SK', '2026-05-05T19:00'],
  ];
  const r = calc('SK', trip, { meals: [meal('SK', '2026-05-05T00:00', 0, 1)] });
  t.strictSame(
    r.perDiems.map((row) => [row.departureTime, row.lunchesProvided, row.amount]),
    [
      ['2026-05-04T20:00', 0, '0.00'], // 4 h: nothing
      ['2026-05-05T00:00', 1, '12.36'], // 19 h: 20.60 - 0.40 x 20.60
    ],
  );
});

t.test('exchange rate unavailable: refused, keyed by the stop', async (t) => {
  const empty = datedBook('CNB', 'BasePerForeign', {});
  throwsDomain(
    t,
    () =>
      calc(
        'CZ',
        [
          ['CZ', '2026-05-04T02:00'],
          ['DE', '2026-05-04T02:00'],
          ['CZ', '2026-05-04T22:00'],
        ],
        { book: empty },
      ),
    'EXCHANGE_RATE_UNAVAILABLE',
    ['stops[1].countryCode'],
  );
  // A row in the base currency needs no rate.
  const home = calc(
    'CZ',
    [
      ['CZ', '2026-05-04T06:00'],
      ['CZ', '2026-05-04T20:00'],
    ],
    { book: empty },
  );
  t.equal(home.totals.inBaseCurrency, '236.00');
  t.equal(paid(home)[0]!.exchangeRate, null);
});

t.test('the years 0000–0099 are read as written, not as 1900–1999 (a refusal names the date sent)', async (t) => {
  for (const year of ['0000', '0050', '0099', '0100']) {
    const e = throwsDomain(
      t,
      () =>
        calc('HR', [
          ['HR', `${year}-03-02T06:00`],
          ['AT', `${year}-03-02T19:00`],
          ['HR', `${year}-03-03T18:00`],
        ]),
      'PER_DIEM_RATE_UNAVAILABLE',
      ['stops[0].countryCode'],
    );
    t.match(e?.errors?.['stops[0].countryCode']?.[0], `for ${year}-03-02.`, year);
  }
});

t.test('the result names its law, base currency and rate-table revision', async (t) => {
  for (const [law, currency] of [
    ['HR', 'EUR'],
    ['SI', 'EUR'],
    ['CZ', 'CZK'],
    ['SK', 'EUR'],
  ] as const) {
    const r = calc(law, [
      [law, '2026-05-04T06:00'],
      [law, '2026-05-04T20:00'],
    ]);
    t.equal(r.law, law);
    t.equal(r.baseCurrency, currency);
    t.strictSame(r.rateTables, { law, revision: null });
  }
});
