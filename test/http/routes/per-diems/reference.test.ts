// The per-diem reference data and the API's description of the feature, over real HTTP: the law's
// rate table in force on a date (domestic amounts, bands, meal reductions, foreign rates), the two
// removed operations (410 Gone naming the calculator), and the OpenAPI document.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { startTestApp } from '../../../helpers/app.js';
import { employee } from './helpers.js';

const PROBLEM = 'application/problem+json; charset=utf-8';
const RATES = '/api/v1/reference/per-diem-rates';

t.test('per-diem reference data and API description', async (t) => {
  const app = await startTestApp(t);
  const si = await app.newTenant({ country: 'SI' });
  const cz = await app.newTenant({ country: 'CZ' });
  const sk = await app.newTenant({ country: 'SK' });
  const table = async (query: string, key?: string) => {
    const res = await app.request('GET', `${RATES}${query}`, key ? { key } : {});
    t.equal(res.status, 200, res.status === 200 ? `GET ${query}` : res.text);
    return res.body;
  };

  t.test('HR: the foreign table changed on 8 Feb 2024 (Austria 70 → 90 EUR)', async (t) => {
    const before = await table('?date=2024-02-07&countryCode=AT');
    t.match(before, {
      law: 'HR',
      date: '2024-02-07',
      domestic: { validFrom: '2024-01-02', currency: 'EUR', amounts: [15, 30] },
      foreign: { validTo: '2024-02-07', complete: false, available: true },
    });
    t.same(
      before.foreign.rates.map((r: any) => [r.countryCode, r.rate, r.currency]),
      [['AT', 70, 'EUR']],
    );
    const after = await table('?date=2024-02-08&countryCode=AT');
    t.match(after.foreign, { validFrom: '2024-02-08', validTo: null, complete: false, available: true, rateTableRevision: null });
    t.match(after.foreign.rates, [{ countryCode: 'AT', rate: 90, currency: 'EUR', validFrom: '2024-02-08', origin: 'shipped' }]);
    t.equal(after.foreign.rates.length, 1);
    // Bands and meal reductions as the engine applies them.
    t.match(after.domesticBands, [
      { overHours: 8, upToHours: 12, includesLowerEdge: false, share: '0.5' },
      { overHours: 12, upToHours: 24, includesLowerEdge: true, share: '1' },
    ]);
    t.match(after.mealReductions, [{ breakfastPercent: 0, lunchPercent: 30, dinnerPercent: 30 }]);
    t.type(after.counting, 'string');
    t.type(after.exchangeRateDate, 'string');

    // Germany is on NN 16/2024 but not in our copy: listed as unavailable, not as 50 USD.
    const germany = await table('?date=2025-04-14&countryCode=DE');
    t.same([germany.foreign.rates, germany.foreign.available], [[], false]);
    // The whole table of a date, sorted by country.
    const all = await table('?date=2025-04-14');
    const codes = all.foreign.rates.map((r: any) => r.countryCode);
    t.same(codes, [...codes].sort());
    t.match(
      all.foreign.rates.find((r: any) => r.countryCode === 'AU'),
      { rate: 100, currency: 'USD' },
    );
    // Without a date: today (UTC).
    t.equal((await table('')).date, new Date().toISOString().slice(0, 10));
  });

  t.test('SI, CZ and SK: each tenant sees its own law', async (t) => {
    const slovenia = await table('?date=2025-06-01&countryCode=AT', si.key);
    t.match(slovenia, {
      law: 'SI',
      domestic: { currency: 'EUR', amounts: [9.69, 13.88, 27.81] },
      foreign: { available: true, rates: [{ countryCode: 'AT', rate: 55, currency: 'EUR' }] },
    });
    t.match(slovenia.foreignBands, [{ share: '0.25' }, { share: '0.75' }, { share: '1' }]);

    // CZ: the decree of each year (domestic 2025 → 2026; Germany 45 → 50 EUR).
    const cz2025 = await table('?date=2025-06-01&countryCode=DE', cz.key);
    const cz2026 = await table('?date=2026-06-01&countryCode=DE', cz.key);
    t.same(
      [cz2025.law, cz2025.domestic.currency, cz2025.domestic.amounts, cz2025.foreign.rates[0].rate, cz2025.foreign.validTo],
      ['CZ', 'CZK', [148, 225, 353], 45, '2025-12-31'],
    );
    t.same([cz2026.domestic.amounts, cz2026.foreign.rates[0].rate, cz2026.foreign.validFrom], [[155, 236, 370], 50, '2026-01-01']);

    // SK: the domestic amounts change on 1 Dec 2025; the foreign table (401/2012) does not.
    const nov = await table('?date=2025-11-30&countryCode=CZ', sk.key);
    const dec = await table('?date=2025-12-01&countryCode=CZ', sk.key);
    t.same([nov.law, nov.domestic.validFrom, nov.domestic.amounts], ['SK', '2025-04-01', [8.8, 13.1, 19.5]]);
    t.same([dec.domestic.validFrom, dec.domestic.amounts], ['2025-12-01', [9.3, 13.8, 20.6]]);
    t.same([dec.foreign.rates[0].rate, dec.foreign.rates[0].currency, dec.foreign.validFrom], [600, 'CZK', '2013-01-01']);
    t.match(dec.mealReductions, [{ breakfastPercent: 25, lunchPercent: 40, dinnerPercent: 35 }, { breakfastPercent: 25 }]);
  });

  t.test('bad queries: 400 keyed by parameter', async (t) => {
    const cases: [string, string][] = [
      ['?date=2025-13-01', 'date'],
      ['?date=yesterday', 'date'],
      ['?countryCode=XX', 'countryCode'],
      ['?countryCode=de', 'countryCode'],
      ['?country=DE', 'country'],
    ];
    for (const [query, field] of cases) {
      const res = await app.request('GET', `${RATES}${query}`);
      t.same(
        [res.status, res.headers.get('content-type'), res.body.code, Object.keys(res.body.errors ?? {})],
        [400, PROBLEM, 'VALIDATION_FAILED', [field]],
        query,
      );
    }
    t.equal((await app.request('GET', RATES, { key: null })).status, 401);
  });

  t.test('the removed operations answer 410 Gone, naming the calculator', async (t) => {
    const ana = await employee(app);
    const entry = await app.request('POST', '/api/v1/travel-entries', {
      body: { employeeId: ana, departureDate: '2025-04-14', returnDate: '2025-04-15', travelType: 'Domestic', currencyCode: 'EUR' },
    });
    t.equal(entry.status, 201, entry.text);
    const removed: [string, unknown][] = [
      [`/api/v1/travel-entries/${entry.body.id}/per-diems/compute`, undefined],
      [`/api/v1/travel-entries/${randomUUID()}/per-diems/compute`, { countryCode: 'AT' }],
      ['/api/v1/per-diems/calculate-simple', undefined],
      ['/api/v1/per-diems/calculate-simple', { countryCode: 'AT', hours: 30 }],
    ];
    for (const [path, body] of removed) {
      const res = await app.request('POST', path, body === undefined ? {} : { body });
      t.same(
        [res.status, res.headers.get('content-type'), res.body.code, res.body.type],
        [410, PROBLEM, 'OPERATION_REMOVED', 'https://travelog.dev/problems/operation-removed'],
        path,
      );
      t.match(res.body.detail, 'POST /api/v1/utilities/per-diems/calculate', 'the detail names the calculator');
      t.match(res.body.detail, 'from-itinerary', 'and from-itinerary');
      t.equal(res.body.replacement, 'POST /api/v1/utilities/per-diems/calculate');
      t.ok(res.body.traceId);
    }
    t.same((await app.request('GET', `/api/v1/travel-entries/${entry.body.id}`)).body.perDiems, [], 'the entry is untouched');
  });

  t.test('the OpenAPI document', async (t) => {
    const res = await app.request('GET', '/api-reference/openapi.json', { key: null });
    t.equal(res.status, 200);
    const doc = res.body;
    const schemas = doc.components.schemas;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const json = (op: any, status: string) => op.responses[status].content['application/json'].schema;

    const calc = doc.paths['/api/v1/utilities/per-diems/calculate']?.post;
    t.ok(calc, 'the calculator');
    t.same(calc.requestBody.content['application/json'].schema, ref('PerDiemItinerary'));
    t.same(json(calc, '200'), ref('PerDiemCalculation'));
    for (const code of ['VALIDATION_FAILED', 'PER_DIEM_RATE_UNAVAILABLE', 'EXCHANGE_RATE_UNAVAILABLE'])
      t.ok(calc['x-error-codes'].includes(code), code);

    const fromItinerary = doc.paths['/api/v1/travel-entries/{id}/per-diems/from-itinerary']?.post;
    t.ok(fromItinerary, 'from-itinerary');
    t.same(fromItinerary.requestBody.content['application/json'].schema, ref('PerDiemItinerary'));
    t.same(json(fromItinerary, '200'), ref('TravelEntry'));
    for (const code of ['ENTRY_LOCKED', 'PRECONDITION_FAILED', 'NOT_FOUND', 'PER_DIEM_RATE_UNAVAILABLE', 'EXCHANGE_RATE_UNAVAILABLE'])
      t.ok(fromItinerary['x-error-codes'].includes(code), code);

    const rates = doc.paths['/api/v1/reference/per-diem-rates']?.get;
    t.ok(rates, 'the rate table');
    t.same(rates.parameters.map((p: any) => [p.in, p.name]).sort(), [
      ['query', 'countryCode'],
      ['query', 'date'],
    ]);

    for (const path of ['/api/v1/travel-entries/{id}/per-diems/compute', '/api/v1/per-diems/calculate-simple']) {
      const op = doc.paths[path]?.post;
      t.same([op?.deprecated, op?.responses['410'] !== undefined], [true, true], `${path}: deprecated, 410`);
      t.match(op?.summary, 'utilities/per-diems/calculate');
    }

    t.same(Object.keys(schemas.ItineraryStop.properties).sort(), ['countryCode', 'placeId', 'time', 'timeZone']);
    t.same(schemas.ItineraryStop.required.sort(), ['countryCode', 'time']);
    t.same(Object.keys(schemas.PerDiemItinerary.properties).sort(), ['advancePaymentDate', 'meals', 'stops']);
    t.same(Object.keys(schemas.PerDiemRowMeals.properties).sort(), [
      'breakfastsProvided',
      'countryCode',
      'departureTime',
      'dinnersProvided',
      'lunchesProvided',
    ]);
    t.same(Object.keys(schemas.PerDiemCalculation.properties).sort(), [
      'baseCurrency',
      'law',
      'notices',
      'perDiems',
      'rateTables',
      'totals',
    ]);
    t.same(schemas.PerDiemLaw.enum?.slice().sort() ?? schemas.PerDiemLaw.anyOf?.map((x: any) => x.const).sort(), ['CZ', 'HR', 'SI', 'SK']);
    for (const field of [
      'departureTimeUtc',
      'arrivalTimeUtc',
      'hours',
      'units',
      'rate',
      'currencyCode',
      'mealReduction',
      'amount',
      'exchangeRate',
      'exchangeRateDate',
      'exchangeRateSource',
      'amountInBaseCurrency',
      'rule',
    ])
      t.ok(schemas.ComputedPerDiem.properties[field], `ComputedPerDiem.${field}`);
    t.match(
      JSON.stringify(schemas.PerDiemInput.properties.amount),
      /never trusted/,
      'a submitted amount is never trusted, says the schema',
    );
    // Writes that carry per diems can be refused for a missing statutory rate.
    for (const [path, method] of [
      ['/api/v1/travel-entries', 'post'],
      ['/api/v1/travel-entries/{id}', 'put'],
      ['/api/v1/travel-entries/{id}/per-diems', 'post'],
      ['/api/v1/travel-entries/{id}/per-diems/{childId}', 'put'],
    ] as const)
      t.ok(
        doc.paths[path]?.[method]?.['x-error-codes']?.includes('PER_DIEM_RATE_UNAVAILABLE'),
        `${method.toUpperCase()} ${path}: PER_DIEM_RATE_UNAVAILABLE`,
        {},
      );
    for (const field of ['statutoryAmount', 'overrideAmount', 'departureTimeLocal', 'arrivalTimeLocal'])
      t.ok(JSON.stringify(schemas.TravelEntry).includes(`"${field}"`), `TravelEntry per diems: ${field}`);
  });

  t.test('the OpenAPI document: the rate table answer has a schema', async (t) => {
    const doc = (await app.request('GET', '/api-reference/openapi.json', { key: null })).body;
    const schema = doc.paths['/api/v1/reference/per-diem-rates'].get.responses['200'].content['application/json'].schema;
    const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
    for (const field of ['law', 'date', 'domestic', 'domesticBands', 'foreignBands', 'mealReductions', 'foreign'])
      t.ok(resolved.properties?.[field], field);
  });

  t.test('the OpenAPI document: an itinerary example for each law', async (t) => {
    const doc = (await app.request('GET', '/api-reference/openapi.json', { key: null })).body;
    const op = doc.paths['/api/v1/utilities/per-diems/calculate'].post;
    const content = op.requestBody.content['application/json'];
    const examples = [
      ...(doc.components.schemas.PerDiemItinerary.examples ?? []),
      ...Object.values(content.examples ?? {}).map((e: any) => e.value),
      ...(content.example ? [content.example] : []),
    ];
    const homes = new Set(examples.map((e: any) => e.stops?.[0]?.countryCode));
    t.same([...homes].sort(), ['CZ', 'HR', 'SI', 'SK'], 'HR, SI, CZ and SK');
  });
});
