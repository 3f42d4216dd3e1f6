// The calculator refuses what it cannot compute, over real HTTP: a bad itinerary is a 400
// problem+json keyed by the offending field; a destination our copy of the law's table lacks is
// PER_DIEM_RATE_UNAVAILABLE (never a guess); a rate currency without a published exchange rate is
// EXCHANGE_RATE_UNAVAILABLE; a body that is not JSON, or JSON of the wrong types, is never a 5xx.
import t from 'tap';
import { startTestApp, type RequestOptions } from '../../../helpers/app.js';
import { CALCULATOR, stop, storeHead } from './helpers.js';

const PROBLEM = 'application/problem+json; charset=utf-8';
const trip = [stop('HR', '2025-04-14T07:00'), stop('HR', '2025-04-14T19:00')];
const minute = (i: number) => `2025-04-14T${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;

t.test('per-diem calculator: refusals', async (t) => {
  const app = await startTestApp(t);
  const headBefore = await storeHead(app);
  const post = (body: unknown, opts: RequestOptions = {}) => app.request('POST', CALCULATOR, { body, ...opts });

  t.test('more stops than the schema allows: one message, from 201 to 1,001', async (t) => {
    // The document's maxItems is the engine's limit (it was 1,000, with another message past it).
    for (const n of [201, 1001]) {
      const res = await post({ stops: Array.from({ length: n }, (_, i) => stop('HR', minute(i % 1440))) });
      t.same([res.status, res.body.errors], [400, { stops: ['At most 200 items.'] }], `${n}: ${res.text.slice(0, 300)}`);
    }
  });

  t.test('bad itineraries: 400 keyed by field', async (t) => {
    const cases: [string, unknown, string][] = [
      ['no stops', { stops: [] }, 'stops'],
      ['one stop', { stops: [stop('HR', '2025-04-14T07:00')] }, 'stops'],
      ['stops missing', {}, 'stops'],
      ['time going backwards', { stops: [stop('HR', '2025-04-14T07:00'), stop('HR', '2025-04-14T06:59')] }, 'stops[1].time'],
      [
        'backwards later on',
        { stops: [stop('HR', '2025-04-14T07:00'), stop('AT', '2025-04-14T09:00'), stop('HR', '2025-04-14T08:00')] },
        'stops[2].time',
      ],
      ['an unknown country', { stops: [trip[0], stop('XX', '2025-04-14T09:00'), trip[1]] }, 'stops[1].countryCode'],
      ['a lower-case country', { stops: [trip[0], stop('at', '2025-04-14T09:00'), trip[1]] }, 'stops[1].countryCode'],
      ['201 stops', { stops: Array.from({ length: 201 }, (_, i) => stop('HR', minute(i))) }, 'stops'],
      [
        'a US stop without a time zone',
        { stops: [trip[0], stop('US', '2025-04-14T09:00'), stop('HR', '2025-04-16T19:00')] },
        'stops[1].timeZone',
      ],
      [
        'a zone of another country',
        { stops: [trip[0], stop('US', '2025-04-14T09:00', 'Europe/Vienna'), stop('HR', '2025-04-16T19:00')] },
        'stops[1].timeZone',
      ],
      ['no such zone', { stops: [trip[0], stop('AT', '2025-04-14T09:00', 'Mars/Olympus'), trip[1]] }, 'stops[1].timeZone'],
      ['hour 25', { stops: [trip[0], stop('HR', '2025-04-14T25:00')] }, 'stops[1].time'],
      ['an offset', { stops: [trip[0], stop('HR', '2025-04-14T19:00Z')] }, 'stops[1].time'],
      ['30 February', { stops: [stop('HR', '2025-02-30T07:00'), trip[1]] }, 'stops[0].time'],
      // Longer than a year and a day: once a stack overflow (500) from year 1 to 9999.
      ['year 1 to 9999', { stops: [stop('HR', '0001-01-01T06:00'), stop('HR', '9999-12-31T06:00')] }, 'stops[1].time'],
      ['367 days', { stops: [trip[0], stop('HR', '2026-04-16T07:00')] }, 'stops[1].time'],
      [
        'a meal keyed to no row',
        { stops: trip, meals: [{ countryCode: 'HR', departureTime: '2025-04-14T08:00', lunchesProvided: 1 }] },
        'meals[0]',
      ],
      [
        'a meal keyed to a row of another country',
        { stops: trip, meals: [{ countryCode: 'AT', departureTime: '2025-04-14T07:00', lunchesProvided: 1 }] },
        'meals[0]',
      ],
      [
        'one row keyed twice',
        {
          stops: trip,
          meals: [
            { countryCode: 'HR', departureTime: '2025-04-14T07:00', lunchesProvided: 1 },
            { countryCode: 'HR', departureTime: '2025-04-14T07:00:00', dinnersProvided: 1 },
          ],
        },
        'meals[1]',
      ],
    ];
    for (const [what, body, field] of cases) {
      const res = await post(body);
      t.same(
        [res.status, res.headers.get('content-type'), res.body.code, Object.keys(res.body.errors ?? {})],
        [400, PROBLEM, 'VALIDATION_FAILED', [field]],
        what,
      );
    }
    const most = await post({ stops: Array.from({ length: 200 }, (_, i) => stop('HR', minute(i))) });
    t.equal(most.status, 200, '200 stops are allowed');
  });

  t.test('not JSON, or JSON of the wrong types: 4xx problem+json, never a 5xx', async (t) => {
    const raw: [string, RequestOptions, number, string][] = [
      ['truncated JSON', { rawBody: '{"stops": [', headers: { 'content-type': 'application/json' } }, 400, 'MALFORMED_JSON'],
      ['an empty JSON body', { rawBody: '', headers: { 'content-type': 'application/json' } }, 400, 'MALFORMED_JSON'],
      ['text/plain', { rawBody: 'HR to AT', headers: { 'content-type': 'text/plain' } }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['no body', {}, 400, 'VALIDATION_FAILED'],
    ];
    for (const [what, opts, status, code] of raw) {
      const res = await app.request('POST', CALCULATOR, opts);
      t.same([res.status, res.headers.get('content-type'), res.body.code], [status, PROBLEM, code], what);
    }
    const typed: [string, unknown, string][] = [
      ['stops a string', { stops: 'HR' }, 'stops'],
      ['a body that is an array', [trip[0], trip[1]], 'body'],
      ['stops numbers', { stops: [1, 2] }, 'stops[0]'],
      ['stops null', { stops: [null, null] }, 'stops[0]'],
      ['a numeric country and time', { stops: [{ countryCode: 1, time: 2 }, trip[1]] }, 'stops[0].countryCode'],
      ['an unknown stop field', { stops: [{ ...trip[0], city: 'Zagreb' }, trip[1]] }, 'stops[0].city'],
      ['meals a string', { stops: trip, meals: 'lunch' }, 'meals'],
      [
        'a negative meal count',
        { stops: trip, meals: [{ countryCode: 'HR', departureTime: '2025-04-14T07:00', lunchesProvided: -1 }] },
        'meals[0].lunchesProvided',
      ],
      [
        'a fractional meal count',
        { stops: trip, meals: [{ countryCode: 'HR', departureTime: '2025-04-14T07:00', lunchesProvided: 1.5 }] },
        'meals[0].lunchesProvided',
      ],
      [
        'a meal count as text',
        { stops: trip, meals: [{ countryCode: 'HR', departureTime: '2025-04-14T07:00', lunchesProvided: 'two' }] },
        'meals[0].lunchesProvided',
      ],
      [
        'a meal time as a number',
        { stops: trip, meals: [{ countryCode: 'HR', departureTime: 7, lunchesProvided: 1 }] },
        'meals[0].departureTime',
      ],
      ['30 February as the advance date', { stops: trip, advancePaymentDate: '2025-02-30' }, 'advancePaymentDate'],
      ['an advance date as a number', { stops: trip, advancePaymentDate: 20250414 }, 'advancePaymentDate'],
      ['an unknown top-level field', { stops: trip, from: 'Zagreb' }, 'from'],
      [
        'a huge number',
        { stops: trip, meals: [{ countryCode: 'HR', departureTime: '2025-04-14T07:00', lunchesProvided: 1e300 }] },
        'meals[0].lunchesProvided',
      ],
    ];
    for (const [what, body, field] of typed) {
      const res = await post(body);
      t.same([res.status, res.headers.get('content-type'), res.body.code], [400, PROBLEM, 'VALIDATION_FAILED'], what);
      t.ok(res.body.errors?.[field], `${what}: keyed ${field} (${JSON.stringify(res.body.errors)})`);
      t.ok(res.body.traceId, `${what}: a traceId`);
    }
    t.equal((await post({ stops: trip }, { key: null })).status, 401, 'no key');
  });

  t.test('a destination missing from our copy of the table: PER_DIEM_RATE_UNAVAILABLE, never 50 USD', async (t) => {
    // Germany and Italy are on NN 16/2024 (in force from 8 Feb 2024) but not in the shipped copy.
    const res = await post({
      stops: [
        stop('HR', '2025-04-14T06:00'),
        stop('DE', '2025-04-14T09:00'),
        stop('AT', '2025-04-15T09:00'),
        stop('IT', '2025-04-15T10:00'),
        stop('HR', '2025-04-15T20:00'),
      ],
    });
    t.same(
      [res.status, res.headers.get('content-type'), res.body.code, res.body.type],
      [400, PROBLEM, 'PER_DIEM_RATE_UNAVAILABLE', 'https://travelog.dev/problems/per-diem-rate-unavailable'],
    );
    t.same(
      Object.keys(res.body.errors).sort(),
      ['stops[1].countryCode'],
      'only the stop whose rate is needed (Austria and Italy are stays of 12 h or less, on Germany’s rate)',
    );
    t.match(res.body.errors['stops[1].countryCode'][0], /DE/);
    // The same destination under the old table (NN 8/2006, to 7 Feb 2024), where our copy has it: 70 EUR.
    const old = await post({ stops: [stop('HR', '2024-02-07T06:00'), stop('DE', '2024-02-07T07:00'), stop('HR', '2024-02-07T20:00')] });
    t.same([old.status, old.body.totals?.inBaseCurrency], [200, 70]);
    // Two stays over 12 h in countries we lack: each stop is named.
    const two = await post({
      stops: [
        stop('HR', '2025-04-14T06:00'),
        stop('DE', '2025-04-14T07:00'),
        stop('IT', '2025-04-15T07:00'),
        stop('HR', '2025-04-16T07:00'),
      ],
    });
    t.same(
      [two.body.code, Object.keys(two.body.errors).sort()],
      ['PER_DIEM_RATE_UNAVAILABLE', ['stops[1].countryCode', 'stops[2].countryCode']],
    );
    // No domestic amounts are known before 2 Jan 2024 (NN 143/2023): refused, not guessed.
    const early = await post({ stops: [stop('HR', '2023-06-01T07:00'), stop('HR', '2023-06-01T20:00')] });
    t.same([early.status, early.body.code, Object.keys(early.body.errors)], [400, 'PER_DIEM_RATE_UNAVAILABLE', ['stops[0].countryCode']]);
  });

  t.test('a USD rate without an HNB rate for the day: EXCHANGE_RATE_UNAVAILABLE', async (t) => {
    // Brazil: 55 USD (NN 16/2024); no HNB list is imported in this file.
    const res = await post({
      stops: [stop('HR', '2025-06-10T08:00'), stop('BR', '2025-06-10T12:00', 'America/Sao_Paulo'), stop('HR', '2025-06-12T20:00')],
    });
    t.same(
      [res.status, res.headers.get('content-type'), res.body.code, Object.keys(res.body.errors)],
      [400, PROBLEM, 'EXCHANGE_RATE_UNAVAILABLE', ['stops[1].countryCode']],
    );
    t.match(res.body.errors['stops[1].countryCode'][0], /USD/);
  });

  t.test('refusals name the right field', async (t) => {
    const si = await app.newTenant({ country: 'SI' });
    // Slovenia: 8 h in Japan (25 %, USD) and 10 h in Austria (75 %, EUR) on a 22-hour trip (cap: one
    // per diem). The cap compares the two in EUR, and there is no ECB rate for June 2025 here: the
    // refusal names the Japanese stop, not the Slovenian one.
    const capped = await post(
      {
        stops: [
          stop('SI', '2025-06-10T06:00'),
          stop('JP', '2025-06-10T14:00'),
          stop('AT', '2025-06-10T17:00'),
          stop('SI', '2025-06-11T03:00'),
          stop('SI', '2025-06-11T04:00'),
        ],
      },
      { key: si.key },
    );
    t.equal(capped.body.code, 'EXCHANGE_RATE_UNAVAILABLE');
    t.same(Object.keys(capped.body.errors ?? {}), ['stops[1].countryCode'], 'only the USD stop', {});
    // A zone of another country is refused; Asia/Tokyo is not an Australian zone.
    const tokyo = await post({
      stops: [stop('HR', '2025-04-14T07:00'), stop('AU', '2025-04-14T19:00', 'Asia/Tokyo'), stop('HR', '2025-04-16T19:00')],
    });
    t.same(
      [tokyo.status, tokyo.body.code, Object.keys(tokyo.body.errors ?? {})],
      [400, 'VALIDATION_FAILED', ['stops[1].timeZone']],
      'Asia/Tokyo in AU',
      {},
    );
  });

  t.test('no refusal stored anything', async (t) => {
    t.equal(await storeHead(app), headBefore);
    t.equal((await app.request('GET', '/api/v1/travel-entries')).body.total, 0);
  });
});
