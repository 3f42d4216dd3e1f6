// A per diem's per-day meal allocation must name days of the per diem (outside probe, session 21): a
// lunch dated 2030-01-01 on a two-day row was counted on the row's last day and changed its amount,
// and on a one-row law the date was not looked at. Now a 400 keyed by the allocation's date.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';
import { domesticTrip } from '../../../helpers/domestic-trip.js';

for (const [law, countryCode] of [
  ['HR', 'AT'],
  ['SK', 'SK'],
] as const) {
  t.test(`${law}: meal allocation days`, async (t) => {
    const app = await startTestApp(t, { country: law });
    const employee = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Eva', lastName: 'Days' } })).body.id as string;
    const newEntry = async () => (await app.request('POST', '/api/v1/travel-entries', { body: domesticTrip(employee) })).body.id as string;
    let entry = await newEntry();
    const add = (date: string) =>
      app.request('POST', `/api/v1/travel-entries/${entry}/per-diems`, {
        body: {
          countryCode,
          departureTime: '2025-04-14T06:40:00Z',
          arrivalTime: '2025-04-15T17:10:00Z',
          lunchesProvided: 1,
          mealsProvidedAllocation: [{ date, lunchesProvided: 1 }],
        },
      });

    for (const date of ['2030-01-01', '1999-01-01', '2025-04-13', '2025-04-16']) {
      const res = await add(date);
      t.same([res.status, Object.keys(res.body.errors ?? {})], [400, ['mealsProvidedAllocation[0].date']], `${date}: ${res.text}`);
      t.match(res.body.errors?.['mealsProvidedAllocation[0].date']?.[0], /2025-04-14 to 2025-04-15/);
    }
    for (const date of ['2025-04-14', '2025-04-15']) {
      entry = await newEntry(); // an entry pays the row's hours once
      const res = await add(date);
      t.equal(res.status, 201, `${date}: ${res.text}`);
    }
  });
}
