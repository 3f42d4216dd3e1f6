// Entries show the current code and name of what they reference (issue 10): the vehicle's
// registration number, make and model and each allocation's cost-center code and name, in GET and
// in the list, current after a rename (and after a GET was cached: the read cache is dropped when
// a vehicle or cost center changes), and in write responses.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';

t.test('reference codes and names on entries', async (t) => {
  const app = await startTestApp(t);
  const ana = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Horvat' } })).body.id as string;
  const cc = (await app.request('POST', '/api/v1/cost-centers', { body: { code: 'CC-100', name: 'Sales' } })).body;
  const car = (
    await app.request('POST', '/api/v1/vehicles', {
      body: { registrationNumber: 'ZG 1234-AB', make: 'Škoda', model: 'Octavia', ownership: 'Company' },
    })
  ).body;
  const created = await app.request('POST', '/api/v1/travel-entries', {
    body: {
      employeeId: ana,
      departureDate: '2025-04-14',
      returnDate: '2025-04-15',
      travelType: 'Domestic',
      currencyCode: 'EUR',
      vehicleId: car.id,
      costCenterAllocations: [{ costCenterId: cc.id, share: 100 }],
    },
  });
  t.equal(created.status, 201, created.text);
  t.equal(created.body.vehicle.registrationNumber, 'ZG 1234-AB', 'a write response shows the names too');
  const path = `/api/v1/travel-entries/${created.body.id}`;

  const read = await app.request('GET', path);
  t.same(read.body.vehicle, { id: car.id, registrationNumber: 'ZG 1234-AB', make: 'Škoda', model: 'Octavia' });
  t.match(read.body.costCenterAllocations, [{ costCenterId: cc.id, costCenterCode: 'CC-100', costCenterName: 'Sales' }]);
  const again = await app.request('GET', path);
  t.same(again.body, read.body, 'read twice: the second from the cache where there is one (PostgreSQL)');

  const renamed = await app.request('PUT', `/api/v1/cost-centers/${cc.id}`, { body: { code: 'CC-200', name: 'Sales Zagreb' } });
  t.equal(renamed.status, 200, renamed.text);
  await app.request('PUT', `/api/v1/vehicles/${car.id}`, {
    body: { registrationNumber: 'ZG 9999-AB', make: 'Škoda', model: 'Superb', ownership: 'Company' },
  });
  const after = await app.request('GET', path);
  t.match(after.body.costCenterAllocations, [{ costCenterCode: 'CC-200', costCenterName: 'Sales Zagreb' }], 'GET: the new name');
  t.same(after.body.vehicle, { id: car.id, registrationNumber: 'ZG 9999-AB', make: 'Škoda', model: 'Superb' });
  const listed = await app.request('GET', '/api/v1/travel-entries');
  const item = listed.body.items.find((x: any) => x.id === created.body.id);
  t.match(item.costCenterAllocations, [{ costCenterCode: 'CC-200', costCenterName: 'Sales Zagreb' }], 'list: the new name');
  t.equal(item.vehicle.registrationNumber, 'ZG 9999-AB');

  const bare = await app.request('POST', '/api/v1/travel-entries', {
    body: { employeeId: ana, departureDate: '2025-04-14', returnDate: '2025-04-15', travelType: 'Domestic', currencyCode: 'EUR' },
  });
  t.equal((await app.request('GET', `/api/v1/travel-entries/${bare.body.id}`)).body.vehicle, null, 'no vehicle: null');
});

t.test('a renamed vehicle or cost center brings the entries naming it to an incremental sync', async (t) => {
  // An ERP's outside try (session 25): entries read with the new name, but nothing moved them in an
  // `updatedSince` sync, so its copy kept the old names. The entry itself (editedAt, revision) and
  // entries naming other records stay as they were.
  const app = await startTestApp(t);
  const post = async (path: string, body: unknown) => {
    const res = await app.request('POST', path, { body });
    t.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const ana = await post('/api/v1/employees', { firstName: 'Ana', lastName: 'Horvat' });
  const sales = await post('/api/v1/cost-centers', { code: 'CC-S', name: 'Sales' });
  const ops = await post('/api/v1/cost-centers', { code: 'CC-O', name: 'Operations' });
  const car = await post('/api/v1/vehicles', { registrationNumber: 'ZG 1-AB', make: 'Škoda', ownership: 'Company' });
  const entry = (extra: object) =>
    post('/api/v1/travel-entries', {
      employeeId: ana,
      departureDate: '2025-04-14',
      returnDate: '2025-04-15',
      travelType: 'Domestic',
      currencyCode: 'EUR',
      ...extra,
    });
  const withCar = await entry({ vehicleId: car, costCenterAllocations: [{ costCenterId: sales, share: 100 }] });
  const withOps = await entry({ costCenterAllocations: [{ costCenterId: ops, share: 100 }] });
  await entry({});
  const before = (await app.request('GET', `/api/v1/travel-entries/${withCar}`)).body;

  await new Promise((r) => setTimeout(r, 20));
  const mark = new Date().toISOString();
  const since = async () =>
    (await app.request('GET', `/api/v1/travel-entries?updatedSince=${encodeURIComponent(mark)}&pageSize=100`)).body.items as any[];
  t.same(await since(), [], 'nothing changed since the mark');

  const put = async (path: string, body: unknown) => t.equal((await app.request('PUT', path, { body })).status, 200);
  await put(`/api/v1/vehicles/${car}`, { registrationNumber: 'ZG 2-AB', make: 'VW', ownership: 'Company' });
  let items = await since();
  t.same(
    items.map((x) => [x.id, x.vehicle?.registrationNumber]),
    [[withCar, 'ZG 2-AB']],
    'the vehicle rename: only the entry naming it, with the new name',
  );
  t.same([items[0].editedAt, items[0].createdAt], [before.editedAt, before.createdAt], "the entry's own times stay");
  const read = await app.request('GET', `/api/v1/travel-entries/${withCar}`);
  t.equal(read.headers.get('etag'), '"0"', 'its revision stays: nothing of the entry was recorded');

  await put(`/api/v1/cost-centers/${ops}`, { code: 'CC-O', name: 'Operations Zagreb' });
  items = await since();
  t.same(
    items.map((x) => [x.id, x.costCenterAllocations[0]?.costCenterName]),
    [
      [withCar, 'Sales'],
      [withOps, 'Operations Zagreb'],
    ],
    'the cost-center rename: its entry joins, in sync order',
  );
});
