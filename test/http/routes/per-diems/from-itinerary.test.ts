// POST /travel-entries/{id}/per-diems/from-itinerary over real HTTP, with a real HTTPS webhook
// receiver: the entry's per diems are replaced by the calculator's rows (UTC instants, the caller's
// wall clock beside them) in one event and one entry.updated delivery; If-Match, Idempotency-Key,
// locked entries, other tenants' entries and refused itineraries; and, for each law, the
// calculator and from-itinerary give the same rows (CZ: at the entry's advance payment date when
// it has an advance, else the trip's first day).
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { streamName } from '../../../../src/domain/travel-entries/index.js';
import type { TestApp } from '../../../helpers/app.js';
import { sleep, startWebhookHarness, waitFor } from '../../../helpers/webhook-harness.js';
import { asStored, calculate, employee, importRateFixtures, stop, storedFields } from './helpers.js';

// The teb.hr trip: 2 h at home, 28 h in Austria, 8.5 h at home (1 foreign + 1 domestic per diem).
const HR_TRIP = {
  stops: [stop('HR', '2025-04-14T06:00'), stop('AT', '2025-04-14T08:00'), stop('HR', '2025-04-15T12:00'), stop('HR', '2025-04-15T20:30')],
  meals: [
    { countryCode: 'AT', departureTime: '2025-04-14T08:00', lunchesProvided: 1 },
    { countryCode: 'HR', departureTime: '2025-04-15T12:00', dinnersProvided: 1 },
  ],
};

async function createEntry(app: TestApp, employeeId: string, extra: Record<string, unknown> = {}, key?: string) {
  const res = await app.request('POST', '/api/v1/travel-entries', {
    body: {
      employeeId,
      entryDate: '2025-04-14',
      departureDate: '2025-04-14',
      returnDate: '2025-04-16',
      travelType: 'Foreign',
      currencyCode: 'EUR',
      advancePayment: 0,
      ...extra,
    },
    ...(key ? { key } : {}),
  });
  if (res.status !== 201) throw new Error(`entry: ${res.status} ${res.text}`);
  return res.body;
}

t.test('per diems from an itinerary', async (t) => {
  const h = await startWebhookHarness(t);
  const { app } = h;
  await importRateFixtures(app);
  const ana = await employee(app);
  await h.subscribe(['entry.updated']);
  const fromItinerary = (id: string, body: unknown, opts: { headers?: Record<string, string>; key?: string } = {}) =>
    app.request('POST', `/api/v1/travel-entries/${id}/per-diems/from-itinerary`, { body, ...opts });
  const events = async (id: string) => (await app.rt.store.readStream(streamName(id))).map((e) => e.type);
  const deliveriesFor = (id: string) => h.received('/hook').filter((r) => JSON.parse(r.body.toString('utf8')).data?.id === id);
  const perDiemsOf = async (id: string, key?: string) =>
    (await app.request('GET', `/api/v1/travel-entries/${id}`, key ? { key } : {})).body.perDiems;

  t.test('replaces every per diem with the calculator’s rows, in one event and one entry.updated', async (t) => {
    const entry = await createEntry(app, ana, {
      perDiems: [
        { countryCode: 'AT', departureTime: '2025-04-14T06:00:00Z', arrivalTime: '2025-04-16T18:00:00Z', amount: 999, currencyCode: 'EUR' },
      ],
    });
    t.equal(entry.perDiems.length, 1);
    const calc = await calculate(app, HR_TRIP);
    t.equal(calc.status, 200, calc.text);

    const res = await fromItinerary(entry.id, HR_TRIP, { headers: { 'if-match': '"0"' } });
    t.equal(res.status, 200, res.text);
    t.equal(res.headers.get('etag'), '"1"');
    t.same(res.body.perDiems.map(storedFields), calc.body.perDiems.map(asStored), 'the calculator’s rows, stored');
    // The rows by hand: Austria 90 − 30 % (lunch) = 63 EUR, the domestic per diem 30 − 30 % (dinner) = 21 EUR.
    t.same(
      res.body.perDiems.map((p: any) => [
        p.countryCode,
        p.departureTime,
        p.arrivalTime,
        p.departureTimeLocal,
        p.arrivalTimeLocal,
        p.amount,
      ]),
      [
        ['HR', '2025-04-14T04:00:00Z', '2025-04-14T06:00:00Z', '2025-04-14T06:00', '2025-04-14T08:00', 0],
        ['AT', '2025-04-14T06:00:00Z', '2025-04-15T10:00:00Z', '2025-04-14T08:00', '2025-04-15T12:00', 63],
        ['HR', '2025-04-15T10:00:00Z', '2025-04-15T18:30:00Z', '2025-04-15T12:00', '2025-04-15T20:30', 21],
      ],
    );
    t.notOk(
      res.body.perDiems.some((p: any) => p.id === entry.perDiems[0].id),
      'the per diem sent before is gone',
    );
    t.ok(
      res.body.perDiems.every((p: any) => /^[0-9a-f-]{36}$/.test(p.id)),
      'each row has an id',
    );
    t.same(await perDiemsOf(entry.id), res.body.perDiems, 'read-your-writes');
    t.same(await events(entry.id), ['TravelEntryCreated', 'TravelEntryPerDiemsReplaced'], 'one event');

    const [delivery] = await waitFor(() => {
      const d = deliveriesFor(entry.id);
      return d.length > 0 ? d : undefined;
    });
    await sleep(1500); // time for a second delivery, if one were (wrongly) made
    t.equal(deliveriesFor(entry.id).length, 1, 'exactly one delivery');
    t.equal(String(delivery!.headers['service-event']), 'entry.updated');
    t.match(JSON.parse(delivery!.body.toString('utf8')), { type: 'entry.updated', data: { id: entry.id } });
  });

  t.test('If-Match with a stale ETag: 412, nothing changes', async (t) => {
    const entry = await createEntry(app, ana);
    t.equal((await fromItinerary(entry.id, HR_TRIP)).status, 200);
    const before = await perDiemsOf(entry.id);
    const stale = await fromItinerary(entry.id, { stops: HR_TRIP.stops }, { headers: { 'if-match': '"0"' } });
    t.same([stale.status, stale.body.code], [412, 'PRECONDITION_FAILED']);
    t.same(await perDiemsOf(entry.id), before);
    t.equal((await events(entry.id)).length, 2);
  });

  t.test('the same itinerary posted again changes nothing and records nothing', async (t) => {
    const entry = await createEntry(app, ana);
    const first = await fromItinerary(entry.id, HR_TRIP);
    t.equal(first.status, 200, first.text);
    const again = await fromItinerary(entry.id, HR_TRIP);
    t.same([again.status, again.headers.get('etag')], [200, first.headers.get('etag')], again.text);
    t.same(again.body.perDiems, first.body.perDiems, 'the same rows, ids included');
    t.same(await events(entry.id), ['TravelEntryCreated', 'TravelEntryPerDiemsReplaced']);
    const other = await fromItinerary(entry.id, { stops: HR_TRIP.stops });
    t.equal(other.headers.get('etag'), '"2"', 'other meals: recorded');
  });

  t.test('an Idempotency-Key replay returns the same response and appends nothing', async (t) => {
    const entry = await createEntry(app, ana);
    const key = `from-itinerary-${randomUUID()}`;
    const first = await fromItinerary(entry.id, HR_TRIP, { headers: { 'idempotency-key': key } });
    t.equal(first.status, 200, first.text);
    const again = await fromItinerary(entry.id, HR_TRIP, { headers: { 'idempotency-key': key } });
    t.same([again.status, again.headers.get('etag'), again.body], [200, first.headers.get('etag'), first.body]);
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    t.same(await events(entry.id), ['TravelEntryCreated', 'TravelEntryPerDiemsReplaced']);
    const other = await fromItinerary(entry.id, { stops: HR_TRIP.stops }, { headers: { 'idempotency-key': key } });
    t.same([other.status, other.body.code], [422, 'IDEMPOTENCY_KEY_REUSED'], 'the same key with another body');
  });

  t.test('a locked entry: 409 ENTRY_LOCKED', async (t) => {
    const entry = await createEntry(app, ana);
    const submitted = await app.request('POST', `/api/v1/travel-entries/${entry.id}/submit`);
    t.same([submitted.body.status, submitted.body.locked], ['Approved', true], 'no workflow: approved and locked');
    const res = await fromItinerary(entry.id, HR_TRIP);
    t.same([res.status, res.headers.get('content-type'), res.body.code], [409, 'application/problem+json; charset=utf-8', 'ENTRY_LOCKED']);
    t.same(await perDiemsOf(entry.id), []);
  });

  t.test('another tenant’s entry, or none: 404', async (t) => {
    const entry = await createEntry(app, ana);
    const stranger = await app.newTenant();
    const res = await fromItinerary(entry.id, HR_TRIP, { key: stranger.key });
    t.same([res.status, res.body.code], [404, 'NOT_FOUND']);
    t.same([(await fromItinerary(randomUUID(), HR_TRIP)).status], [404]);
    t.same(await perDiemsOf(entry.id), [], 'untouched');
    t.same(await events(entry.id), ['TravelEntryCreated']);
  });

  t.test('a refused itinerary changes nothing', async (t) => {
    const entry = await createEntry(app, ana);
    const one = await fromItinerary(entry.id, { stops: [stop('HR', '2025-04-14T06:00')] });
    t.same([one.status, one.body.code, Object.keys(one.body.errors)], [400, 'VALIDATION_FAILED', ['stops']]);
    const backwards = await fromItinerary(entry.id, { stops: [stop('HR', '2025-04-14T06:00'), stop('HR', '2025-04-14T05:00')] });
    t.same(Object.keys(backwards.body.errors ?? {}), ['stops[1].time']);
    const meal = await fromItinerary(entry.id, {
      stops: HR_TRIP.stops,
      meals: [{ countryCode: 'AT', departureTime: '2025-04-14T09:00', lunchesProvided: 1 }],
    });
    t.same(Object.keys(meal.body.errors ?? {}), ['meals[0]']);
    const germany = await fromItinerary(entry.id, {
      stops: [stop('HR', '2025-04-14T06:00'), stop('DE', '2025-04-14T08:00'), stop('HR', '2025-04-15T20:00')],
    });
    t.same(
      [germany.status, germany.body.code, Object.keys(germany.body.errors)],
      [400, 'PER_DIEM_RATE_UNAVAILABLE', ['stops[1].countryCode']],
    );
    const noRate = await fromItinerary(entry.id, {
      stops: [stop('HR', '2025-06-10T08:00'), stop('AU', '2025-06-10T18:00', 'Australia/Sydney'), stop('HR', '2025-06-12T12:00')],
    });
    t.same([noRate.status, noRate.body.code], [400, 'EXCHANGE_RATE_UNAVAILABLE']);
    t.same(await events(entry.id), ['TravelEntryCreated'], 'no event');
  });

  t.test('the calculator and from-itinerary give the same rows, for each law', async (t) => {
    const laws: {
      country: 'HR' | 'SI' | 'CZ' | 'SK';
      entry: Record<string, unknown>;
      body: { stops: unknown[]; meals?: unknown[]; advancePaymentDate?: string };
      calcExtra?: Record<string, unknown>;
      inBase: number;
    }[] = [
      {
        // Australia 2 × 100 USD, a lunch: 170 USD; HNB 14 Apr 2025: 170 / 1.1346 = 149.83 EUR.
        country: 'HR',
        entry: {},
        body: {
          stops: [stop('HR', '2025-04-14T08:00'), stop('AU', '2025-04-14T18:00', 'Australia/Sydney'), stop('HR', '2025-04-16T12:00')],
          meals: [{ countryCode: 'AU', departureTime: '2025-04-14T18:00', lunchesProvided: 1 }],
        },
        inBase: 149.83,
      },
      {
        // Japan 2 × 100 USD, ECB on the last day (16 Apr 2025, 1.1355): 176.13 EUR.
        country: 'SI',
        entry: {},
        body: { stops: [stop('SI', '2025-04-14T08:00'), stop('JP', '2025-04-14T20:00'), stop('SI', '2025-04-16T10:00')] },
        inBase: 176.13,
      },
      {
        // Germany 30 + 45 EUR at the CNB rate of the entry's advance payment date (25 Apr, 24.930):
        // 1869.75 CZK (§183(2): an advance was paid). The body's advancePaymentDate (the trip's
        // first day, which has no CNB rate here) is ignored by from-itinerary.
        country: 'CZ',
        entry: {
          currencyCode: 'CZK',
          departureDate: '2025-05-05',
          returnDate: '2025-05-06',
          advancePayment: 1000,
          advancePaymentDate: '2025-04-25',
        },
        body: {
          stops: [
            stop('CZ', '2025-05-05T06:00'),
            stop('DE', '2025-05-05T10:00'),
            stop('CZ', '2025-05-06T20:00'),
            stop('CZ', '2025-05-06T22:00'),
          ],
          advancePaymentDate: '2025-05-05',
        },
        calcExtra: { advancePaymentDate: '2025-04-25' },
        inBase: 1869.75,
      },
      {
        // The same trip a week earlier, with no advance (§184): the CNB rate of the day the trip
        // starts (28 Apr: the list of 25 Apr), as the calculator takes it when it is given no
        // advance date; not the entry date's, which defaults the advance payment date (20 May: no
        // list in the 7 days before it, so a 400 before session 26).
        country: 'CZ',
        entry: { currencyCode: 'CZK', entryDate: '2025-05-20', departureDate: '2025-04-28', returnDate: '2025-04-29' },
        body: {
          stops: [
            stop('CZ', '2025-04-28T06:00'),
            stop('DE', '2025-04-28T10:00'),
            stop('CZ', '2025-04-29T20:00'),
            stop('CZ', '2025-04-29T22:00'),
          ],
        },
        calcExtra: {},
        inBase: 1869.75,
      },
      {
        // Czechia half a day = 300 CZK − 40 % of 600 for a lunch = 60 CZK; ECB of 1 Apr: 2.39 EUR.
        // Home: 4 h in the morning, nothing.
        country: 'SK',
        entry: {},
        body: {
          stops: [stop('SK', '2025-04-14T06:00'), stop('CZ', '2025-04-14T10:00'), stop('SK', '2025-04-14T20:00')],
          meals: [{ countryCode: 'CZ', departureTime: '2025-04-14T10:00', lunchesProvided: 1 }],
        },
        inBase: 2.39,
      },
    ];
    for (const law of laws) {
      const tenant = law.country === 'HR' ? app.tenant : await app.newTenant({ country: law.country });
      const worker = await employee(app, tenant.key);
      const entry = await createEntry(app, worker, law.entry, tenant.key);
      const calc = await calculate(app, { ...law.body, ...law.calcExtra }, tenant.key);
      t.equal(calc.status, 200, `${law.country} calculator ${calc.status === 200 ? '' : calc.text}`);
      t.equal(calc.body.totals?.inBaseCurrency, law.inBase, `${law.country}: the amount by hand`);
      const stored = await fromItinerary(entry.id, law.body, { key: tenant.key });
      t.equal(stored.status, 200, `${law.country} from-itinerary ${stored.status === 200 ? '' : stored.text}`);
      t.same(stored.body.perDiems?.map(storedFields), calc.body.perDiems?.map(asStored), `${law.country}: the same rows`);
    }
  });
});
