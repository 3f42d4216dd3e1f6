// A per diem sent on a travel entry (in a create, a replacement, or added or changed on its own) is
// computed by the statutory engine as a one-leg itinerary, over real HTTP: a submitted amount is
// never trusted (the stored amount is the statutory one), and overrideAmount with overrideReason
// replaces it while statutoryAmount keeps the engine's figure.
import t from 'tap';
import { startTestApp, type TestApp } from '../../../helpers/app.js';
import { employee, importRateFixtures } from './helpers.js';

const entryBody = (employeeId: string, extra: Record<string, unknown> = {}) => ({
  employeeId,
  entryDate: '2025-04-14',
  departureDate: '2025-04-14',
  returnDate: '2025-04-16',
  travelType: 'Foreign',
  currencyCode: 'EUR',
  advancePayment: 0,
  ...extra,
});

/** Australia has several zones; Sydney is UTC+10 in April. */
const australia = (departureTime: string, arrivalTime: string, extra: Record<string, unknown> = {}) => ({
  countryCode: 'AU',
  timeZone: 'Australia/Sydney',
  departureTime,
  arrivalTime,
  amount: 999,
  ...extra,
});

async function create(app: TestApp, body: unknown, key?: string) {
  return app.request('POST', '/api/v1/travel-entries', { body, ...(key ? { key } : {}) });
}

t.test('per diems sent on an entry', async (t) => {
  const app = await startTestApp(t);
  await importRateFixtures(app);
  const ana = await employee(app);

  t.test('in a create: the statutory amount, not the submitted one', async (t) => {
    // Austria 06:00Z to 18:00Z two days later: 60 h = 2 blocks + 12 h (full) = 3 × 90 EUR; a lunch
    // cuts 30 % of one: 270 − 27 = 243.
    const res = await create(app, {
      ...entryBody(ana),
      perDiems: [
        { countryCode: 'AT', departureTime: '2025-04-14T06:00:00Z', arrivalTime: '2025-04-16T18:00:00Z', lunchesProvided: 1, amount: 999 },
      ],
    });
    t.equal(res.status, 201, res.text);
    t.match(res.body.perDiems[0], {
      countryCode: 'AT',
      departureTime: '2025-04-14T06:00:00Z',
      arrivalTime: '2025-04-16T18:00:00Z',
      departureTimeLocal: '2025-04-14T08:00',
      arrivalTimeLocal: '2025-04-16T20:00',
      amount: 243,
      statutoryAmount: 243,
      overrideAmount: null,
      currencyCode: 'EUR',
      rate: 90,
      units: 3,
      hours: 60,
      mealReduction: 27,
      lunchesProvided: 1,
      amountInBaseCurrency: 243,
      rateTableRevision: null,
    });
    t.type(res.body.perDiems[0].rule, 'string');
  });

  t.test('refusals of a row added on its own are keyed by its own fields, as the schema keys them', async (t) => {
    const { body: entry } = await create(app, entryBody(ana));
    const base = `/api/v1/travel-entries/${entry.id}/per-diems`;
    const refused = async (body: Record<string, unknown>) => {
      const res = await app.request('POST', base, { body });
      return [res.status, res.body.code, Object.keys(res.body.errors ?? {})];
    };
    t.same(
      await refused({ countryCode: 'DE', departureTime: '2025-04-14T06:00:00Z', arrivalTime: '2025-04-15T11:00:00Z' }),
      [400, 'PER_DIEM_RATE_UNAVAILABLE', ['countryCode']],
      'a destination without a rate',
    );
    // A row is a one-leg itinerary: longer than a year and a day is refused (it once ran for seconds).
    t.same(
      await refused({ countryCode: 'HR', departureTime: '2025-04-14T06:00:00Z', arrivalTime: '2125-04-14T06:00:00Z' }),
      [400, 'VALIDATION_FAILED', ['arrivalTime']],
      'a century',
    );
    const inEntry = await create(app, {
      ...entryBody(ana),
      perDiems: [{ countryCode: 'HR', departureTime: '2025-04-14T06:00:00Z', arrivalTime: '2125-04-14T06:00:00Z' }],
    });
    t.same([inEntry.status, Object.keys(inEntry.body.errors ?? {})], [400, ['perDiems[0].arrivalTime']], 'the same row in an entry');
  });

  t.test('added and changed on their own; override and statutory side by side', async (t) => {
    const { body: entry } = await create(app, entryBody(ana));
    const base = `/api/v1/travel-entries/${entry.id}/per-diems`;
    // 9 h at home: a half per diem (15), a lunch cuts 30 % of it: 10.50.
    const added = await app.request('POST', base, {
      body: {
        countryCode: 'HR',
        departureTime: '2025-04-14T06:00:00Z',
        arrivalTime: '2025-04-14T15:00:00Z',
        lunchesProvided: 1,
        amount: 999,
      },
    });
    t.equal(added.status, 201, added.text);
    t.match(added.body.perDiems[0], {
      amount: 10.5,
      statutoryAmount: 10.5,
      units: 0.5,
      mealReduction: 4.5,
      departureTimeLocal: '2025-04-14T08:00',
    });

    // 12 h at home: a full per diem (30); the company pays 25, saying why.
    const overridden = await app.request('POST', base, {
      body: {
        countryCode: 'HR',
        departureTime: '2025-04-16T06:00:00Z',
        arrivalTime: '2025-04-16T18:00:00Z',
        amount: 999,
        overrideAmount: 25,
        overrideReason: 'company policy',
      },
    });
    t.equal(overridden.status, 201, overridden.text);
    const row = overridden.body.perDiems.find((p: any) => p.departureTime === '2025-04-16T06:00:00Z');
    t.match(row, { amount: 25, overrideAmount: 25, overrideReason: 'company policy', statutoryAmount: 30, amountInBaseCurrency: 25 });

    // Changed: 9 h now, no override sent: the statutory half again, the override cleared.
    const changed = await app.request('PUT', `${base}/${row.id}`, {
      body: { countryCode: 'HR', departureTime: '2025-04-16T06:00:00Z', arrivalTime: '2025-04-16T15:00:00Z', amount: 999 },
    });
    t.equal(changed.status, 200, changed.text);
    t.match(
      changed.body.perDiems.find((p: any) => p.id === row.id),
      { amount: 15, statutoryAmount: 15, overrideAmount: null, overrideReason: null },
    );

    // overrideAmount needs its reason, and the reason its amount.
    const noReason = await app.request('POST', base, {
      body: { countryCode: 'HR', departureTime: '2025-04-17T06:00:00Z', arrivalTime: '2025-04-17T18:00:00Z', overrideAmount: 25 },
    });
    t.same([noReason.status, Object.keys(noReason.body.errors ?? {})], [400, ['overrideReason']]);
  });

  t.test('the same hours twice: a retried POST is refused, keyed departureTime, and pays once', async (t) => {
    // The payroll try (session 26): sent twice without an Idempotency-Key, 24 h in Austria was two
    // rows of 90 EUR, approved and paid.
    const { body: entry } = await create(app, entryBody(ana));
    const base = `/api/v1/travel-entries/${entry.id}/per-diems`;
    const day = { countryCode: 'AT', departureTime: '2025-04-14T05:00:00Z', arrivalTime: '2025-04-15T05:00:00Z' };
    const first = await app.request('POST', base, { body: day });
    t.equal(first.status, 201, first.text);
    const again = await app.request('POST', base, { body: day });
    t.same(
      [again.status, again.body.code, Object.keys(again.body.errors ?? {})],
      [400, 'VALIDATION_FAILED', ['departureTime']],
      again.text,
    );
    const read = await app.request('GET', `/api/v1/travel-entries/${entry.id}`);
    t.same(
      read.body.perDiems.map((p: any) => p.amount),
      [90],
      'one row, one per diem',
    );
    const twice = await create(app, { ...entryBody(ana), perDiems: [day, day] });
    t.same([twice.status, Object.keys(twice.body.errors ?? {})], [400, ['perDiems[1].departureTime']], 'the same row twice in a create');
    // A full replacement: the stored row sent back with its id, and a new one over its hours.
    const stored = read.body.perDiems[0];
    const replaced = await app.request('PUT', `/api/v1/travel-entries/${entry.id}`, {
      body: entryBody(ana, {
        perDiems: [
          { ...day, id: stored.id },
          { ...day, arrivalTime: '2025-04-14T12:00:00Z' },
        ],
      }),
      headers: { 'if-match': read.headers.get('etag')! },
    });
    t.same([replaced.status, Object.keys(replaced.body.errors ?? {})], [400, ['perDiems[1].departureTime']], replaced.text);
    const kept = await app.request('PUT', `/api/v1/travel-entries/${entry.id}`, {
      body: entryBody(ana, { purpose: 'Edited', perDiems: [{ ...day, id: stored.id }] }),
      headers: { 'if-match': read.headers.get('etag')! },
    });
    t.equal(kept.status, 200, `the row sent back alone: ${kept.text}`);
  });

  t.test('in a replacement of the entry', async (t) => {
    const { body: entry } = await create(app, entryBody(ana));
    // 14 h in Austria: one full per diem, 90 EUR (not the 1 sent).
    const res = await app.request('PUT', `/api/v1/travel-entries/${entry.id}`, {
      body: entryBody(ana, {
        perDiems: [
          { countryCode: 'AT', departureTime: '2025-04-14T06:00:00Z', arrivalTime: '2025-04-14T20:00:00Z', amount: 1, currencyCode: 'EUR' },
        ],
      }),
      headers: { 'if-match': '"0"' },
    });
    t.equal(res.status, 200, res.text);
    t.match(res.body.perDiems[0], { amount: 90, statutoryAmount: 90, units: 1, rate: 90 });
  });

  t.test('a USD rate: converted at HNB of the day; an override converted the same way', async (t) => {
    // 29 h in Australia: one block + 5 h = 1 per diem = 100 USD; 100 / 1.1346 = 88.14 EUR.
    // The same trip twice, on two entries: one entry pays one time once (per-diem-overlaps.ts).
    const trip = (over: Record<string, unknown>) =>
      create(app, { ...entryBody(ana), perDiems: [australia('2025-04-14T06:00:00Z', '2025-04-15T11:00:00Z', over)] });
    const res = await trip({ currencyCode: 'EUR' });
    const cappedRes = await trip({ overrideAmount: 50, overrideReason: 'capped' });
    t.same([res.status, cappedRes.status], [201, 201], res.text + cappedRes.text);
    const [plain] = res.body.perDiems;
    const [capped] = cappedRes.body.perDiems;
    t.match(plain, {
      currencyCode: 'USD',
      amount: 100,
      statutoryAmount: 100,
      rate: 100,
      units: 1,
      hours: 29,
      departureTimeLocal: '2025-04-14T16:00',
      arrivalTimeLocal: '2025-04-15T21:00',
      exchangeRate: 1.1346,
      exchangeRateDate: '2025-04-14',
      exchangeRateSource: 'HNB',
      amountInBaseCurrency: 88.14,
    });
    // 50 USD / 1.1346 = 44.07 EUR.
    t.match(capped, { currencyCode: 'USD', amount: 50, overrideAmount: 50, statutoryAmount: 100, amountInBaseCurrency: 44.07 });
  });

  t.test('an override of a row whose statutory amount is 0 USD is still converted', async (t) => {
    // 5 h in Australia: no per diem (0 USD), but the company pays 50 USD: 50 / 1.1346 = 44.07 EUR.
    const res = await create(app, {
      ...entryBody(ana),
      perDiems: [australia('2025-04-14T06:00:00Z', '2025-04-14T11:00:00Z', { overrideAmount: 50, overrideReason: 'meal allowance' })],
    });
    t.equal(res.status, 201, res.text);
    t.match(res.body.perDiems?.[0], { currencyCode: 'USD', statutoryAmount: 0, amount: 50, amountInBaseCurrency: 44.07 }, '50 USD in EUR');
  });

  t.test('a destination missing from our copy of the table: PER_DIEM_RATE_UNAVAILABLE keyed by the row', async (t) => {
    const res = await create(app, {
      ...entryBody(ana),
      perDiems: [
        { countryCode: 'DE', departureTime: '2025-04-14T06:00:00Z', arrivalTime: '2025-04-15T11:00:00Z', amount: 999, currencyCode: 'EUR' },
      ],
    });
    t.same(
      [res.status, res.body.code, Object.keys(res.body.errors ?? {})],
      [400, 'PER_DIEM_RATE_UNAVAILABLE', ['perDiems[0].countryCode']],
    );
  });

  t.test('the same without currencyCode (optional, never used): the rate refusal, not "currencyCode required"', async (t) => {
    const res = await create(app, {
      ...entryBody(ana),
      perDiems: [{ countryCode: 'DE', departureTime: '2025-04-14T06:00:00Z', arrivalTime: '2025-04-15T11:00:00Z', amount: 999 }],
    });
    t.same(
      [res.status, res.body.code, Object.keys(res.body.errors ?? {})],
      [400, 'PER_DIEM_RATE_UNAVAILABLE', ['perDiems[0].countryCode']],
      'the rate refusal',
    );
    const us = await create(app, {
      ...entryBody(ana),
      perDiems: [{ countryCode: 'US', departureTime: '2025-04-14T06:00:00Z', arrivalTime: '2025-04-15T11:00:00Z', amount: 999 }],
    });
    t.same(Object.keys(us.body.errors ?? {}), ['perDiems[0].timeZone'], 'only the missing zone');
  });

  t.test('a manual exchange rate where HNB publishes none', async (t) => {
    // No HNB list for June 2025 here. 1 per diem = 100 USD at a manual 1.25 USD/EUR: 80 EUR.
    const res = await create(app, {
      ...entryBody(ana, { entryDate: '2025-06-14', departureDate: '2025-06-14', returnDate: '2025-06-15' }),
      perDiems: [australia('2025-06-14T06:00:00Z', '2025-06-15T11:00:00Z', { currencyCode: 'USD', manualExchangeRate: 1.25 })],
    });
    t.equal(res.status, 201, res.text);
    t.match(
      res.body.perDiems?.[0],
      { amount: 100, manualExchangeRate: 1.25, exchangeRateSource: 'MANUAL', amountInBaseCurrency: 80 },
      'converted at the manual rate',
    );
  });

  t.test('CZ: one per diem over two calendar days is the sum of its days', async (t) => {
    const cz = await app.newTenant({ country: 'CZ' });
    const worker = await employee(app, cz.key);
    // Germany (45 EUR in 2025) 08:00 to 18:00 the next day, Prague time: 16 h and 18 h abroad, both
    // two thirds (30 EUR); one lunch on each day cuts 35 % (10.50): 2 × 19.50 = 39 EUR; at the CNB
    // rate of the advance payment date (24.930): 2 × 486.14 = 972.28 CZK.
    const res = await create(
      app,
      {
        ...entryBody(worker, { currencyCode: 'CZK', entryDate: '2025-04-25', departureDate: '2025-04-27', returnDate: '2025-04-28' }),
        advancePaymentDate: '2025-04-25',
        perDiems: [
          {
            countryCode: 'DE',
            departureTime: '2025-04-27T06:00:00Z',
            arrivalTime: '2025-04-28T16:00:00Z',
            lunchesProvided: 2,
            amount: 999,
          },
        ],
      },
      cz.key,
    );
    t.equal(res.status, 201, res.text);
    t.match(res.body.perDiems[0], {
      currencyCode: 'EUR',
      amount: 39,
      statutoryAmount: 39,
      mealReduction: 21,
      hours: 34,
      exchangeRate: 24.93,
      exchangeRateDate: '2025-04-25',
      exchangeRateSource: 'CNB',
      amountInBaseCurrency: 972.28,
    });
  });

  t.test('CZ: the units of a two-day row are two thirds twice', async (t) => {
    const cz = await app.newTenant({ country: 'CZ' });
    const worker = await employee(app, cz.key);
    const res = await create(
      app,
      {
        ...entryBody(worker, { currencyCode: 'CZK', entryDate: '2025-04-25', departureDate: '2025-04-27', returnDate: '2025-04-28' }),
        advancePaymentDate: '2025-04-25',
        perDiems: [{ countryCode: 'DE', departureTime: '2025-04-27T06:00:00Z', arrivalTime: '2025-04-28T16:00:00Z', amount: 999 }],
      },
      cz.key,
    );
    t.equal(res.status, 201, res.text);
    t.equal(res.body.perDiems?.[0]?.units, 1.3333, '4/3 to 4 places');
  });

  t.test('SK: one per diem across 1 Dec 2025 pays each day at its own amounts', async (t) => {
    const sk = await app.newTenant({ country: 'SK' });
    const worker = await employee(app, sk.key);
    // Bratislava 08:00 on 30 Nov to 20:00 on 1 Dec: 16 h (13.10, old) + 20 h (20.60, new) = 33.70 EUR.
    const res = await create(
      app,
      {
        ...entryBody(worker, { entryDate: '2025-11-30', departureDate: '2025-11-30', returnDate: '2025-12-01', travelType: 'Domestic' }),
        perDiems: [{ countryCode: 'SK', departureTime: '2025-11-30T07:00:00Z', arrivalTime: '2025-12-01T19:00:00Z', amount: 999 }],
      },
      sk.key,
    );
    t.equal(res.status, 201, res.text);
    t.match(res.body.perDiems[0], {
      currencyCode: 'EUR',
      amount: 33.7,
      statutoryAmount: 33.7,
      hours: 36,
      departureTimeLocal: '2025-11-30T08:00',
    });
  });

  // A row in a country with several zones could not be sent back on a full replacement: no response
  // named the zone the write needs (outside try, session 23). The figures now record it.
  t.test('the zone a row was computed in: shown, and sent back as read', async (t) => {
    /** A row as a client sends back what it read (the fields a per diem takes). */
    const asSent = (p: any, over: Record<string, unknown> = {}) => ({
      id: p.id,
      countryCode: p.countryCode,
      timeZone: p.timeZone,
      departureTime: p.departureTime,
      arrivalTime: p.arrivalTime,
      breakfastsProvided: p.breakfastsProvided,
      lunchesProvided: p.lunchesProvided,
      dinnersProvided: p.dinnersProvided,
      ...over,
    });
    const body = {
      ...entryBody(ana, { travelType: 'Foreign' }),
      perDiems: [
        australia('2025-04-14T00:00:00Z', '2025-04-15T06:00:00Z'),
        { countryCode: 'HR', departureTime: '2025-04-15T06:00:00Z', arrivalTime: '2025-04-15T20:00:00Z' },
      ],
    };
    const created = await create(app, body);
    t.equal(created.status, 201, created.text);
    const zones = (r: { body: { perDiems: { countryCode: string; timeZone: string; departureTimeLocal: string }[] } }) =>
      r.body.perDiems.map((p) => [p.countryCode, p.timeZone, p.departureTimeLocal]);
    t.same(zones(created), [
      ['AU', 'Australia/Sydney', '2025-04-14T10:00'],
      ['HR', 'Europe/Zagreb', '2025-04-15T08:00'],
    ]);
    const id = created.body.id as string;
    const read = await app.request('GET', `/api/v1/travel-entries/${id}`);
    t.same(read.body.perDiems, created.body.perDiems, 'the GET shows the same');
    const listed = await app.request('GET', `/api/v1/travel-entries?employeeId=${ana}&pageSize=200`);
    t.same(listed.body.items.find((e: { id: string }) => e.id === id).perDiems, created.body.perDiems, 'and the list');

    const oneLunchMore = read.body.perDiems.map((p: any, i: number) =>
      asSent(p, i === 0 ? { lunchesProvided: p.lunchesProvided + 1 } : {}),
    );
    const replaced = await app.request('PUT', `/api/v1/travel-entries/${id}`, { body: { ...body, perDiems: oneLunchMore } });
    t.equal(replaced.status, 200, replaced.text);
    t.same([replaced.body.perDiems[0].lunchesProvided, replaced.body.perDiems[0].timeZone], [1, 'Australia/Sydney']);

    const itinerary = await app.request('POST', `/api/v1/travel-entries/${id}/per-diems/from-itinerary`, {
      body: {
        stops: [
          { countryCode: 'HR', time: '2025-04-14T06:00' },
          { countryCode: 'AU', time: '2025-04-15T08:00', timeZone: 'Australia/Sydney' },
          { countryCode: 'HR', time: '2025-04-16T20:00' },
        ],
      },
    });
    t.equal(itinerary.status, 200, itinerary.text);
    t.same(
      itinerary.body.perDiems.map((p: { countryCode: string; timeZone: string }) => [p.countryCode, p.timeZone]),
      [
        ['HR', 'Europe/Zagreb'],
        ['AU', 'Australia/Sydney'],
      ],
      "each row in its leg's zone",
    );

    // Read and sent back as it is, zones included: the trip's figures are kept and nothing is
    // recorded. The row abroad arrives home, so its arrivalTimeLocal is Zagreb's, not Sydney's (review).
    const before = await app.request('GET', `/api/v1/travel-entries/${id}`);
    const same = await app.request('PUT', `/api/v1/travel-entries/${id}`, {
      body: { ...body, perDiems: before.body.perDiems.map((p: any) => asSent(p)) },
    });
    t.equal(same.status, 200, same.text);
    t.equal(same.headers.get('etag'), before.headers.get('etag'), 'no event: the rows came back as they were read');
    t.same(same.body.perDiems, before.body.perDiems, 'the figures are the ones the trip was computed with');
  });
});
