// A per diem's representation names the zone it was computed in (outside try, session 23): a row in
// a country with several zones could not be sent back on a full replacement, since the zone the
// write needed was not in any response. The create, the from-itinerary write, the GET and the list
// show it; a replacement that sends the row back as read, with one meal changed, is taken.
import t from 'tap';
import { importRatesFile } from '../../../../src/rates/import-command.js';
import { fixturePath, HNB_RANGE } from '../../../rates/fixture-files.js';
import { startTestApp } from '../../../helpers/app.js';

t.test('per diems carry their time zone', async (t) => {
  const app = await startTestApp(t, { country: 'HR' });
  await importRatesFile(app.rt.handle.db, 'HNB', fixturePath(HNB_RANGE)); // USD, 2025-04-11 to 2025-04-17
  const employeeId = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Zona', lastName: 'Vremena' } })).body
    .id as string;
  const entry = {
    employeeId,
    entryDate: '2025-04-14',
    departureDate: '2025-04-14',
    returnDate: '2025-04-16',
    travelType: 'Foreign',
    currencyCode: 'EUR',
    perDiems: [
      { countryCode: 'AU', timeZone: 'Australia/Perth', departureTime: '2025-04-14T00:00:00Z', arrivalTime: '2025-04-15T06:00:00Z' },
      { countryCode: 'HR', departureTime: '2025-04-15T06:00:00Z', arrivalTime: '2025-04-15T20:00:00Z' },
    ],
  };
  const created = await app.request('POST', '/api/v1/travel-entries', { body: entry });
  t.equal(created.status, 201, created.text);
  t.same(
    created.body.perDiems.map((p: { countryCode: string; timeZone: string; departureTimeLocal: string }) => [
      p.countryCode,
      p.timeZone,
      p.departureTimeLocal,
    ]),
    [
      ['AU', 'Australia/Perth', '2025-04-14T08:00'],
      ['HR', 'Europe/Zagreb', '2025-04-15T08:00'],
    ],
  );
  const id = created.body.id as string;
  const read = await app.request('GET', `/api/v1/travel-entries/${id}`);
  t.same(read.body.perDiems, created.body.perDiems, 'the GET shows the same');
  const listed = await app.request('GET', '/api/v1/travel-entries');
  t.same(listed.body.items[0].perDiems, created.body.perDiems, 'and the list');

  // Sent back as read (the fields a per diem takes), one lunch more on the row in Australia.
  const sentBack = read.body.perDiems.map((p: any, i: number) => ({
    id: p.id,
    countryCode: p.countryCode,
    timeZone: p.timeZone,
    departureTime: p.departureTime,
    arrivalTime: p.arrivalTime,
    breakfastsProvided: p.breakfastsProvided,
    lunchesProvided: p.lunchesProvided + (i === 0 ? 1 : 0),
    dinnersProvided: p.dinnersProvided,
  }));
  const replaced = await app.request('PUT', `/api/v1/travel-entries/${id}`, { body: { ...entry, perDiems: sentBack } });
  t.equal(replaced.status, 200, replaced.text);
  t.same([replaced.body.perDiems[0].lunchesProvided, replaced.body.perDiems[0].timeZone], [1, 'Australia/Perth']);

  const fromItinerary = await app.request('POST', `/api/v1/travel-entries/${id}/per-diems/from-itinerary`, {
    body: {
      stops: [
        { countryCode: 'HR', time: '2025-04-14T06:00' },
        { countryCode: 'AU', time: '2025-04-15T08:00', timeZone: 'Australia/Perth' },
        { countryCode: 'HR', time: '2025-04-16T20:00' },
      ],
    },
  });
  t.equal(fromItinerary.status, 200, fromItinerary.text);
  t.same(
    fromItinerary.body.perDiems.map((p: { countryCode: string; timeZone: string }) => [p.countryCode, p.timeZone]),
    [
      ['HR', 'Europe/Zagreb'],
      ['AU', 'Australia/Perth'],
    ],
    "each row in its leg's zone",
  );

  // Read and sent back as it is, zones included: the trip's figures are kept and nothing is
  // recorded. The row abroad arrives home, so its arrivalTimeLocal is Zagreb's, not Perth's (review).
  const before = await app.request('GET', `/api/v1/travel-entries/${id}`);
  const { perDiems: rows } = before.body;
  const same = await app.request('PUT', `/api/v1/travel-entries/${id}`, {
    body: {
      ...entry,
      perDiems: rows.map((p: any) => ({
        id: p.id,
        countryCode: p.countryCode,
        timeZone: p.timeZone,
        departureTime: p.departureTime,
        arrivalTime: p.arrivalTime,
        breakfastsProvided: p.breakfastsProvided,
        lunchesProvided: p.lunchesProvided,
        dinnersProvided: p.dinnersProvided,
      })),
    },
  });
  t.equal(same.status, 200, same.text);
  t.equal(same.headers.get('etag'), before.headers.get('etag'), 'no event: the rows came back as they were read');
  t.same(same.body.perDiems, rows, 'the figures are the ones the trip was computed with');
});
