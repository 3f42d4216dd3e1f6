// Property, over real HTTP for each law: for a random itinerary (2–5 stops from home, legs of
// 1 minute to 30 hours, random meals keyed by the stops' rows), the calculator and from-itinerary
// give the same rows, or refuse the itinerary the same way. CZ: an entry with an advance, and the
// calculator given its advance payment date (from-itinerary uses the entry's). Destinations are those each
// law's shipped table rates in April 2025, with the exchange-rate fixtures of helpers.ts.
import fc from 'fast-check';
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';
import { asStored, calculate, employee, importRateFixtures, storedFields } from './helpers.js';

const RUNS_PER_LAW = 10;
const T0 = Date.UTC(2025, 3, 14, 0, 0);
const MINUTE = 60_000;

type Law = 'HR' | 'SI' | 'CZ' | 'SK';
const LAWS: { law: Law; pool: string[]; entry: Record<string, unknown>; calcExtra: Record<string, unknown> }[] = [
  { law: 'HR', pool: ['AT', 'BA', 'CZ', 'FR'], entry: {}, calcExtra: {} },
  { law: 'SI', pool: ['AT', 'HR', 'HU', 'IT'], entry: {}, calcExtra: {} },
  {
    law: 'CZ',
    pool: ['DE', 'SK'],
    entry: { currencyCode: 'CZK', advancePayment: 1000, advancePaymentDate: '2025-04-25' },
    calcExtra: { advancePaymentDate: '2025-04-25' },
  },
  // CZ rates are in CZK: converted at the ECB list of 1 Apr 2025.
  { law: 'SK', pool: ['AT', 'CZ', 'HU', 'PL'], entry: {}, calcExtra: {} },
];

/** Wall-clock text of UTC fields shifted into Central European time (every country here keeps it). */
function cetWall(ms: number): string {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Vienna',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

const itineraries = (home: string, pool: readonly string[]) =>
  fc
    .record({
      middle: fc.array(fc.constantFrom(home, ...pool), { minLength: 0, maxLength: 3 }),
      gaps: fc.array(fc.integer({ min: 1, max: 30 * 60 }), { minLength: 4, maxLength: 4 }),
      start: fc.integer({ min: 0, max: 12 * 60 }),
      meals: fc.array(fc.record({ lunches: fc.integer({ min: 0, max: 2 }), dinners: fc.integer({ min: 0, max: 2 }) }), {
        minLength: 4,
        maxLength: 4,
      }),
    })
    .map(({ middle, gaps, start, meals }) => {
      const countries = [home, ...middle, home];
      let at = T0 + start * MINUTE;
      const stops = countries.map((countryCode, i) => {
        if (i > 0) at += gaps[i - 1]! * MINUTE;
        return { countryCode, time: cetWall(at) };
      });
      // One meal entry per leg with any meal: keyed by the leg's first row (its stop's country and time).
      const keyed = stops.slice(0, -1).flatMap((s, i) =>
        meals[i]!.lunches + meals[i]!.dinners === 0
          ? []
          : [
              {
                countryCode: s.countryCode,
                departureTime: s.time,
                lunchesProvided: meals[i]!.lunches,
                dinnersProvided: meals[i]!.dinners,
              },
            ],
      );
      return { stops, ...(keyed.length > 0 && { meals: keyed }) };
    });

t.test('the calculator and from-itinerary give the same rows for the same itinerary, for each law', async (t) => {
  const app = await startTestApp(t);
  await importRateFixtures(app);
  for (const { law, pool, entry, calcExtra } of LAWS) {
    const tenant = law === 'HR' ? app.tenant : await app.newTenant({ country: law });
    const worker = await employee(app, tenant.key);
    const created = await app.request('POST', '/api/v1/travel-entries', {
      key: tenant.key,
      body: {
        employeeId: worker,
        entryDate: '2025-04-14',
        departureDate: '2025-04-14',
        returnDate: '2025-04-18',
        travelType: 'Foreign',
        currencyCode: 'EUR',
        advancePayment: 0,
        ...entry,
      },
    });
    t.equal(created.status, 201, 'entry created');
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(itineraries(law, pool), async (body) => {
        const calc = await calculate(app, { ...body, ...calcExtra }, tenant.key);
        const stored = await app.request('POST', `/api/v1/travel-entries/${created.body.id}/per-diems/from-itinerary`, {
          key: tenant.key,
          body,
        });
        if (calc.status !== stored.status)
          throw new Error(`${law}: calculator ${calc.status} ${calc.text}; from-itinerary ${stored.status} ${stored.text}`);
        if (calc.status === 200) {
          t.same(stored.body.perDiems.map(storedFields), calc.body.perDiems.map(asStored), `${law}: the same rows`);
          compared++;
        } else {
          t.same([stored.body.code, stored.body.errors], [calc.body.code, calc.body.errors], `${law}: the same refusal`);
        }
      }),
      { numRuns: RUNS_PER_LAW, seed: 20261125 },
    );
    t.ok(compared > 0, `${law}: rows compared in ${compared} of ${RUNS_PER_LAW} runs`);
  }
});
