// An ERP reads an entry and PUTs it back (to fix its purpose, say): the per diems it sends back as
// they were read keep the figures from-itinerary stored, with the whole trip's redistribution, and
// a write that changes nothing records nothing. Found from outside (session 14): each such PUT
// computed every row again as a one-leg itinerary, paying 120 instead of 105 EUR on one trip and
// 90 instead of 120 on another, with an event and a webhook for a change nobody made.
import t from 'tap';
import { streamName } from '../../../../src/domain/travel-entries/index.js';
import { startTestApp } from '../../../helpers/app.js';
import { employee, stop } from './helpers.js';

const ENTRY = {
  entryDate: '2025-04-14',
  departureDate: '2025-04-14',
  returnDate: '2025-04-15',
  travelType: 'Foreign',
  currencyCode: 'EUR',
  advancePayment: 0,
  purpose: 'Customer visit',
};

/** The per-diem fields a client sends back as read. */
const echoed = (p: any) => ({
  id: p.id,
  countryCode: p.countryCode,
  departureTime: p.departureTime,
  arrivalTime: p.arrivalTime,
  breakfastsProvided: p.breakfastsProvided,
  lunchesProvided: p.lunchesProvided,
  dinnersProvided: p.dinnersProvided,
});

t.test('per diems sent back as read keep their figures', async (t) => {
  const app = await startTestApp(t);
  const ana = await employee(app);
  const events = async (id: string) => (await app.rt.store.readStream(streamName(id))).length;

  async function entryFrom(stops: ReturnType<typeof stop>[]) {
    const created = await app.request('POST', '/api/v1/travel-entries', { body: { employeeId: ana, ...ENTRY } });
    t.equal(created.status, 201, created.text);
    const res = await app.request('POST', `/api/v1/travel-entries/${created.body.id}/per-diems/from-itinerary`, { body: { stops } });
    t.equal(res.status, 200, res.text);
    return res.body;
  }
  const amounts = (entry: any) => entry.perDiems.map((p: any) => p.amount);

  for (const { name, stops, want } of [
    {
      name: 'a short stay at home before the night abroad (15 + 90 + 0)',
      stops: [
        stop('HR', '2025-04-14T06:00'),
        stop('AT', '2025-04-14T17:00'),
        stop('HR', '2025-04-15T06:00'),
        stop('HR', '2025-04-15T17:00'),
      ],
      want: [15, 90, 0],
    },
    {
      name: 'the domestic top-up on the last leg at home (0 + 90 + 30)',
      stops: [
        stop('HR', '2025-04-14T06:00'),
        stop('AT', '2025-04-14T09:40'),
        stop('HR', '2025-04-15T17:30'),
        stop('HR', '2025-04-15T19:00'),
      ],
      want: [0, 90, 30],
    },
  ]) {
    t.test(name, async (t) => {
      const entry = await entryFrom(stops);
      t.same(amounts(entry), want, 'from-itinerary');
      const before = await events(entry.id);

      const same = await app.request('PUT', `/api/v1/travel-entries/${entry.id}`, {
        body: { employeeId: ana, ...ENTRY, perDiems: entry.perDiems.map(echoed) },
      });
      t.equal(same.status, 200, same.text);
      t.same(amounts(same.body), want, 'the whole entry sent back: the same amounts');
      t.equal(await events(entry.id), before, 'and no event: nothing changed');

      const purpose = await app.request('PUT', `/api/v1/travel-entries/${entry.id}`, {
        body: { employeeId: ana, ...ENTRY, purpose: 'Customer workshop', perDiems: entry.perDiems.map(echoed) },
      });
      t.equal(purpose.status, 200, purpose.text);
      t.same(amounts(purpose.body), want, 'another purpose: the per diems stay');
      t.equal(await events(entry.id), before + 1, 'one event for the purpose');

      const last = entry.perDiems[entry.perDiems.length - 1];
      const row = await app.request('PUT', `/api/v1/travel-entries/${entry.id}/per-diems/${last.id}`, { body: echoed(last) });
      t.equal(row.status, 200, row.text);
      t.same(amounts(row.body), want, 'one row sent back as read: the same amounts');
      t.equal(await events(entry.id), before + 1, 'and no event');

      // A row that does change is computed again, on its own (docs/per-diems.md).
      const changed = await app.request('PUT', `/api/v1/travel-entries/${entry.id}/per-diems/${last.id}`, {
        body: { ...echoed(last), lunchesProvided: 1 },
      });
      t.equal(changed.status, 200, changed.text);
      t.equal(await events(entry.id), before + 2, 'a real change is recorded');
    });
  }
  t.test('a changed row: every row is computed on its own, none keeps figures that leaned on the others', async (t) => {
    // A review's case: the lunch keyed to the last leg at home (which holds no per diem) cut the
    // first row. Sent back without that lunch, the first row must not keep the cut.
    const created = await app.request('POST', '/api/v1/travel-entries', { body: { employeeId: ana, ...ENTRY } });
    const stops = [
      stop('HR', '2025-04-14T06:00'),
      stop('AT', '2025-04-14T17:00'),
      stop('HR', '2025-04-15T06:00'),
      stop('HR', '2025-04-15T17:00'),
    ];
    const meals = [{ countryCode: 'HR', departureTime: '2025-04-15T06:00', lunchesProvided: 1 }];
    const entry = (
      await app.request('POST', `/api/v1/travel-entries/${created.body.id}/per-diems/from-itinerary`, { body: { stops, meals } })
    ).body;
    t.same(
      entry.perDiems.map((p: any) => [p.amount, p.mealReduction]),
      [
        [10.5, 4.5],
        [90, 0],
        [0, 0],
      ],
      'from-itinerary: the lunch cuts the first row',
    );
    const rows = entry.perDiems.map(echoed);
    rows[2].lunchesProvided = 0;
    const res = await app.request('PUT', `/api/v1/travel-entries/${entry.id}`, { body: { employeeId: ana, ...ENTRY, perDiems: rows } });
    t.equal(res.status, 200, res.text);
    t.same(
      res.body.perDiems.map((p: any) => [p.amount, p.mealReduction]),
      [
        [15, 0],
        [90, 0],
        [15, 0],
      ],
      'each row as a one-leg itinerary, no cut left behind (post the itinerary again to keep the trip-level figures)',
    );
  });
});
