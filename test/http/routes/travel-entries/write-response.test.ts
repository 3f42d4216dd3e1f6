// A write's response is the entry exactly as a GET right after it answers it, byte for byte: the
// create, import and replace build it from the state the write path folded and the vehicle and
// cost-center names their own checks looked up (issue 13: no second read for the names), while the
// GET reads the projection's row and reads the names again. Any drift between the two (a field the
// fold has and the read model lacks, a name shaped differently) shows here.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';

t.test('create, import and replace answer what a later GET answers, byte for byte', async (t) => {
  const app = await startTestApp(t);
  const ana = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Horvat' } })).body.id as string;
  const cc = async (code: string, name: string) =>
    (await app.request('POST', '/api/v1/cost-centers', { body: { code, name } })).body.id as string;
  const [sales, ops] = [await cc('CC-1', 'Sales'), await cc('CC-2', 'Operations')];
  const car = (
    await app.request('POST', '/api/v1/vehicles', {
      body: { registrationNumber: 'ZG 1234-AB', make: 'Škoda', model: null, ownership: 'Company' },
    })
  ).body.id as string;
  const entry = {
    employeeId: ana,
    entryDate: '2026-03-01',
    departureDate: '2026-03-02',
    returnDate: '2026-03-04',
    departureLocation: 'Zagreb',
    destination: 'Wien',
    travelType: 'Foreign',
    purpose: 'Customer workshop',
    advancePayment: 100,
    currencyCode: 'EUR',
    vehicleId: car,
    expenses: [
      { date: '2026-03-02', category: 'Hotel', amount: '200.00', currencyCode: 'EUR' },
      { date: '2026-03-03', category: 'Taxi', amount: 12.5, currencyCode: 'EUR' },
    ],
    perDiems: [
      {
        countryCode: 'AT',
        departureTime: '2026-03-02T06:00:00Z',
        arrivalTime: '2026-03-04T18:00:00Z',
        mealsProvided: 2,
        amount: 150,
        currencyCode: 'EUR',
      },
    ],
    costCenterAllocations: [
      { costCenterId: sales, share: 60 },
      { costCenterId: ops.toUpperCase(), share: '40' },
    ],
  };

  const sameAsGet = async (label: string, res: { status: number; text: string; headers: Headers }, status: number) => {
    t.equal(res.status, status, label, { body: res.text.slice(0, 500) });
    const id = JSON.parse(res.text).id as string;
    const read = await app.request('GET', `/api/v1/travel-entries/${id}`);
    t.equal(read.status, 200, `${label}: GET right after it`);
    t.equal(res.text, read.text, `${label}: the response bytes are the GET's`);
    t.equal(res.headers.get('etag'), read.headers.get('etag'), `${label}: the same ETag`);
    return JSON.parse(res.text);
  };

  const created = await sameAsGet('create', await app.request('POST', '/api/v1/travel-entries', { body: entry }), 201);
  t.equal(created.vehicle.registrationNumber, 'ZG 1234-AB', 'the names are in it');
  t.same(
    created.costCenterAllocations.map((a: any) => a.costCenterName),
    ['Sales', 'Operations'],
    'an id in other case finds its names too',
  );
  await sameAsGet(
    'replace',
    await app.request('PUT', `/api/v1/travel-entries/${created.id}`, { body: { ...entry, vehicleId: null, purpose: 'Changed' } }),
    200,
  );
  const imported = await app.request('POST', '/api/v1/travel-entries/import', {
    body: {
      ...entry,
      entryDate: '2021-05-01',
      departureDate: '2021-05-02',
      returnDate: '2021-05-04',
      perDiems: [],
      expenses: [],
      entryNumber: 'LEG-2021-7',
      status: 'Approved',
    },
  });
  await sameAsGet('import', imported, 201);
  await sameAsGet(
    'create without references',
    await app.request('POST', '/api/v1/travel-entries', { body: { ...entry, vehicleId: null, costCenterAllocations: [] } }),
    201,
  );
});
