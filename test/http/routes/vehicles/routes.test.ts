// Vehicles over real HTTP: lifecycle, registration number shown as entered and unique (normalized)
// among active ones (also under concurrent creates), ownership and owner, engineCapacityCc accepted,
// returned and cleared when omitted on PUT, archiving, RESOURCE_IN_USE, the entry's vehicleId
// checks (active, a private vehicle belongs to the entry's employee), and tenant isolation.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';
import { domesticTrip } from '../../../helpers/domestic-trip.js';

t.test('vehicles', async (t) => {
  const app = await startTestApp(t);
  const employee = async (firstName: string, key = app.tenant.key) =>
    (await app.request('POST', '/api/v1/employees', { key, body: { firstName, lastName: 'Driver' } })).body.id as string;
  const ana = await employee('Ana');
  const ivo = await employee('Ivo');

  t.test('create, read, list, replace clears engineCapacityCc when omitted, delete', async (t) => {
    const body = {
      registrationNumber: 'ZG 1234-AB',
      make: 'Škoda',
      model: 'Octavia',
      ownership: 'Company',
      fuelType: 'Diesel',
      engineCapacityCc: 1968,
    };
    const created = await app.request('POST', '/api/v1/vehicles', { body });
    t.equal(created.status, 201, created.text);
    t.match(created.body, { ...body, employeeId: null, isArchived: false });
    const id = created.body.id;
    t.same((await app.request('GET', `/api/v1/vehicles/${id}`)).body.engineCapacityCc, 1968, 'returned in detail');
    const list = await app.request('GET', '/api/v1/vehicles');
    t.same(list.body.items.find((v: { id: string }) => v.id === id)?.engineCapacityCc, 1968, 'returned in the list');
    const updated = await app.request('PUT', `/api/v1/vehicles/${id}`, {
      body: { ...body, engineCapacityCc: 1598 },
      headers: { 'if-match': '"0"' },
    });
    t.same([updated.status, updated.body.engineCapacityCc], [200, 1598], 'accepted on update');
    const { engineCapacityCc: _cc, ...withoutCc } = body;
    const cleared = await app.request('PUT', `/api/v1/vehicles/${id}`, { body: withoutCc });
    t.same([cleared.status, cleared.body.engineCapacityCc], [200, null], 'omitted on a full replacement: cleared');
    t.same((await app.request('GET', `/api/v1/vehicles/${id}`)).body.engineCapacityCc, null);
    for (const bad of [0, 20001, 1.5, '1600']) {
      const res = await app.request('PUT', `/api/v1/vehicles/${id}`, { body: { ...body, engineCapacityCc: bad } });
      t.same([res.status, Object.keys(res.body.errors ?? {})], [400, ['engineCapacityCc']], `engineCapacityCc ${JSON.stringify(bad)}`);
    }
    t.equal((await app.request('DELETE', `/api/v1/vehicles/${id}`)).status, 204);
    t.equal((await app.request('GET', `/api/v1/vehicles/${id}`)).status, 404);
  });

  t.test('registration numbers: shown as entered, unique ignoring case, spaces and dashes', async (t) => {
    const first = await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'ri 555-cd', ownership: 'Company' } });
    t.same([first.status, first.body.registrationNumber], [201, 'ri 555-cd']);
    const dup = await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'RI555CD', ownership: 'Company' } });
    t.same([dup.status, dup.body.code, dup.body.field], [409, 'CODE_TAKEN', 'registrationNumber']);
    await app.request('PUT', `/api/v1/vehicles/${first.body.id}`, {
      body: { registrationNumber: 'ri 555-cd', ownership: 'Company', isArchived: true },
    });
    t.equal(
      (await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'RI-555-CD', ownership: 'Company' } })).status,
      201,
      'archiving frees it',
    );
    const race = await Promise.all(
      ['ST 1-A', 'st1a', 'ST-1 A'].map((registrationNumber) =>
        app.request('POST', '/api/v1/vehicles', { body: { registrationNumber, ownership: 'Company' } }),
      ),
    );
    t.same(race.map((r) => r.status).sort(), [201, 409, 409], 'concurrent creates of one number: one wins');
    // What prints alike is the same number (found from outside, session 14).
    const composed = await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: '\u010cK 100-A', ownership: 'Company' } });
    t.equal(composed.status, 201, composed.text);
    for (const registrationNumber of ['C\u030cK 100-A', '\u010cK\u2013100\u2013A'])
      t.same(
        (await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber, ownership: 'Company' } })).body.code,
        'CODE_TAKEN',
        JSON.stringify(registrationNumber),
      );
  });

  t.test('ownership: a private vehicle names an active employee as owner', async (t) => {
    const noOwner = await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'PR-1', ownership: 'Private' } });
    t.same([noOwner.status, Object.keys(noOwner.body.errors ?? {})], [400, ['employeeId']]);
    const unknown = await app.request('POST', '/api/v1/vehicles', {
      body: { registrationNumber: 'PR-1', ownership: 'Private', employeeId: '6f1c1a52-3a0e-4c53-9d4b-0d7b7c1f9a10' },
    });
    t.same([unknown.status, Object.keys(unknown.body.errors ?? {})], [400, ['employeeId']]);
    const badEnum = await app.request('POST', '/api/v1/vehicles', {
      body: { registrationNumber: 'PR-1', ownership: 'Leased', fuelType: 'Coal' },
    });
    t.same([badEnum.status, Object.keys(badEnum.body.errors ?? {}).sort()], [400, ['fuelType', 'ownership']]);
  });

  t.test('a private vehicle whose owner was archived can still be archived, not restored (found from outside)', async (t) => {
    const leaver = await employee('Leaver');
    const body = { registrationNumber: 'PR-LEAVE-1', ownership: 'Private', employeeId: leaver };
    const v = await app.request('POST', '/api/v1/vehicles', { body });
    t.equal(v.status, 201, v.text);
    t.equal((await app.request('POST', `/api/v1/employees/${leaver}/archive`)).status, 200);
    const other = await employee('Other leaver');
    t.equal((await app.request('POST', `/api/v1/employees/${other}/archive`)).status, 200);
    const swapped = await app.request('PUT', `/api/v1/vehicles/${v.body.id}`, { body: { ...body, employeeId: other, isArchived: true } });
    t.same([swapped.status, Object.keys(swapped.body.errors ?? {})], [400, ['employeeId']], 'never a new archived owner');
    const born = await app.request('POST', '/api/v1/vehicles', {
      body: { ...body, registrationNumber: 'PR-LEAVE-2', isArchived: true },
    });
    t.same([born.status, Object.keys(born.body.errors ?? {})], [400, ['employeeId']], 'nor on a create');
    const archived = await app.request('PUT', `/api/v1/vehicles/${v.body.id}`, { body: { ...body, isArchived: true } });
    t.same([archived.status, archived.body.isArchived], [200, true], archived.text);
    const restored = await app.request('PUT', `/api/v1/vehicles/${v.body.id}`, { body: { ...body, isArchived: false } });
    t.same([restored.status, Object.keys(restored.body.errors ?? {})], [400, ['employeeId']], 'restoring needs an active owner');
    const foreign = await app.request('PUT', `/api/v1/vehicles/${v.body.id}`, {
      body: { ...body, employeeId: '6f1c1a52-3a0e-4c53-9d4b-0d7b7c1f9a10', isArchived: true },
    });
    t.same([foreign.status, Object.keys(foreign.body.errors ?? {})], [400, ['employeeId']], 'an unknown owner stays refused');
  });

  t.test('entries name an active vehicle; a private one must be the entry employee’s; in use means no delete', async (t) => {
    const anasCar = (
      await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'ANA-1', ownership: 'Private', employeeId: ana } })
    ).body.id;
    const pool = (await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'POOL-1', ownership: 'Company' } })).body.id;
    const old = (
      await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'OLD-1', ownership: 'Company', isArchived: true } })
    ).body.id;
    const notHers = await app.request('POST', '/api/v1/travel-entries', { body: domesticTrip(ivo, { vehicleId: anasCar }) });
    t.same([notHers.status, Object.keys(notHers.body.errors ?? {})], [400, ['vehicleId']], notHers.text);
    const archived = await app.request('POST', '/api/v1/travel-entries', { body: domesticTrip(ivo, { vehicleId: old }) });
    t.same([archived.status, Object.keys(archived.body.errors ?? {})], [400, ['vehicleId']]);
    const freeText = await app.request('POST', '/api/v1/travel-entries', { body: domesticTrip(ivo, { vehicleId: 'ZG-1234' }) });
    t.same([freeText.status, Object.keys(freeText.body.errors ?? {})], [400, ['vehicleId']]);
    const hers = await app.request('POST', '/api/v1/travel-entries', { body: domesticTrip(ana, { vehicleId: anasCar }) });
    t.equal(hers.status, 201, hers.text);
    const pooled = await app.request('POST', '/api/v1/travel-entries', { body: domesticTrip(ivo, { vehicleId: pool }) });
    t.equal(pooled.status, 201, pooled.text);
    const replaced = await app.request('PUT', `/api/v1/travel-entries/${pooled.body.id}`, {
      body: domesticTrip(ivo, { vehicleId: anasCar }),
    });
    t.same([replaced.status, Object.keys(replaced.body.errors ?? {})], [400, ['vehicleId']], 'on replacement too');

    const inUse = await app.request('DELETE', `/api/v1/vehicles/${pool}`);
    t.same([inUse.status, inUse.body.code, inUse.body.references], [409, 'RESOURCE_IN_USE', { travelEntries: 1 }], inUse.text);
    const archive = await app.request('PUT', `/api/v1/vehicles/${pool}`, {
      body: { registrationNumber: 'POOL-1', ownership: 'Company', isArchived: true },
    });
    t.same([archive.status, archive.body.isArchived], [200, true], 'archiving is always allowed');
  });

  t.test('tenant isolation', async (t) => {
    const other = await app.newTenant();
    const mine = (await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'ISO-1', ownership: 'Company' } })).body.id;
    t.equal((await app.request('GET', `/api/v1/vehicles/${mine}`, { key: other.key })).status, 404);
    const put = await app.request('PUT', `/api/v1/vehicles/${mine}`, {
      key: other.key,
      body: { registrationNumber: 'X', ownership: 'Company' },
    });
    t.equal(put.status, 404);
    t.equal((await app.request('DELETE', `/api/v1/vehicles/${mine}`, { key: other.key })).status, 404);
    t.equal((await app.request('GET', '/api/v1/vehicles', { key: other.key })).body.total, 0);
    t.equal(
      (await app.request('POST', '/api/v1/vehicles', { key: other.key, body: { registrationNumber: 'ISO-1', ownership: 'Company' } }))
        .status,
      201,
    );
    const owner = await app.request('POST', '/api/v1/vehicles', {
      key: other.key,
      body: { registrationNumber: 'P-9', ownership: 'Private', employeeId: ana },
    });
    t.same([owner.status, Object.keys(owner.body.errors ?? {})], [400, ['employeeId']], 'another tenant’s employee is unknown');
    const theirs = await employee('Their', other.key);
    const cross = await app.request('POST', '/api/v1/travel-entries', { key: other.key, body: domesticTrip(theirs, { vehicleId: mine }) });
    t.same([cross.status, Object.keys(cross.body.errors ?? {})], [400, ['vehicleId']]);
  });
});
