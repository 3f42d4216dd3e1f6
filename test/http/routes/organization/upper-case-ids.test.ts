// UUIDs are case-insensitive on input (RFC 9562). An outside probe (session 16) found two places
// that kept the case: a reference sent upper-case was not counted by the "still in use" check, so a
// department, vehicle or cost center named by an employee or an entry could be deleted; and an
// upper-case id in the path found the record on GET but 404'd on PUT, DELETE, history and as-of.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';
import { domesticTrip } from '../../../helpers/domestic-trip.js';

t.test('upper-case UUIDs', async (t) => {
  const app = await startTestApp(t);
  const up = (id: string): string => id.toUpperCase();

  t.test('a reference sent upper-case still counts as in use', async (t) => {
    const dept = (await app.request('POST', '/api/v1/departments', { body: { name: 'Upper' } })).body.id as string;
    const emp = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Una', lastName: 'Upper', departmentId: up(dept) } });
    t.equal(emp.status, 201, emp.text);
    const deptInUse = await app.request('DELETE', `/api/v1/departments/${dept}`);
    t.same([deptInUse.status, deptInUse.body.code, deptInUse.body.references], [409, 'RESOURCE_IN_USE', { employees: 1 }], deptInUse.text);

    const car = (await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'UP-1', ownership: 'Company' } })).body
      .id as string;
    const cc = (await app.request('POST', '/api/v1/cost-centers', { body: { code: 'UP-CC', name: 'Upper' } })).body.id as string;
    const entry = await app.request('POST', '/api/v1/travel-entries', {
      body: domesticTrip(emp.body.id, { vehicleId: up(car), costCenterAllocations: [{ costCenterId: up(cc), share: 100 }] }),
    });
    t.equal(entry.status, 201, entry.text);
    const carInUse = await app.request('DELETE', `/api/v1/vehicles/${car}`);
    t.same([carInUse.status, carInUse.body.references], [409, { travelEntries: 1 }], carInUse.text);
    const ccInUse = await app.request('DELETE', `/api/v1/cost-centers/${cc}`);
    t.same([ccInUse.status, ccInUse.body.references], [409, { travelEntries: 1 }], ccInUse.text);
  });

  t.test('a reference sent upper-case is stored, answered and recorded lower-case', async (t) => {
    const dept = (await app.request('POST', '/api/v1/departments', { body: { name: 'Lower' } })).body.id as string;
    const cc = (await app.request('POST', '/api/v1/cost-centers', { body: { code: 'LOW-CC', name: 'Lower' } })).body.id as string;
    const car = (await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'LOW-1', ownership: 'Company' } })).body
      .id as string;
    const emp = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Lea', lastName: 'Lower', departmentId: up(dept) } });
    t.same([emp.status, emp.body.departmentId], [201, dept], emp.text);
    const entry = await app.request('POST', '/api/v1/travel-entries', {
      body: domesticTrip(up(emp.body.id), { vehicleId: up(car), costCenterAllocations: [{ costCenterId: up(cc), share: 100 }] }),
    });
    t.equal(entry.status, 201, entry.text);
    const stored = await app.request('GET', `/api/v1/travel-entries/${entry.body.id}`);
    t.same(
      [stored.body.employeeId, stored.body.vehicleId, stored.body.costCenterAllocations[0].costCenterId],
      [emp.body.id, car, cc],
      'the entry holds the canonical ids',
    );
    const history = await app.request('GET', `/api/v1/employees/${emp.body.id}/history`);
    t.equal(history.body.items[0].data.profile.departmentId, dept, 'the recorded event holds it');
  });

  t.test('an upper-case id in the path reaches the same record on every verb', async (t) => {
    const created = await app.request('POST', '/api/v1/cost-centers', { body: { code: 'PATH-CC', name: 'Path' } });
    const id = created.body.id as string;
    const path = `/api/v1/cost-centers/${up(id)}`;
    t.equal((await app.request('GET', path)).status, 200);
    const put = await app.request('PUT', path, { body: { code: 'PATH-CC', name: 'Renamed' } });
    t.same([put.status, put.body.id, put.body.name], [200, id, 'Renamed'], put.text);
    const del = await app.request('DELETE', path);
    t.equal(del.status, 204, del.text);
    t.equal((await app.request('GET', `/api/v1/cost-centers/${id}`)).status, 404);

    const emp = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Hana', lastName: 'History' } })).body.id as string;
    const replaced = await app.request('PUT', `/api/v1/employees/${up(emp)}`, { body: { firstName: 'Hana', lastName: 'Renamed' } });
    t.equal(replaced.status, 200, replaced.text);
    const history = await app.request('GET', `/api/v1/employees/${up(emp)}/history`);
    t.same([history.status, history.body.total], [200, 2], history.text);
    const asOf = await app.request('GET', `/api/v1/employees/${up(emp)}?revision=0`);
    t.same([asOf.status, asOf.body.lastName], [200, 'History'], asOf.text);
  });
});
