// Projection replay specs: a realistic history written through the API for two tenants, then the
// projection's rows read, rebuilt from position zero twice, and read again. A projection that
// depends on anything but its events (the clock, the order rows happen to be written, another read
// model) shows up as a difference.
import type { Test } from 'tap';
import { sql } from 'kysely';
import type { Projection } from '../../projections/projection.js';
import { startTestApp, type TestApp } from './app.js';

type Row = Record<string, unknown>;

/** Every row of the projection's tables, in a stable order, as comparable JSON values. */
export async function rowsOf(app: TestApp, projection: Projection): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const table of projection.tables) {
    const rows = (await sql<Row>`select * from ${sql.table(table)}`.execute(app.rt.handle.db)).rows;
    // sync_seq is the order rows were written in (incremental sync's key), new on every write by design.
    out[table] = rows
      .map(({ sync_seq: _, ...r }) => JSON.parse(JSON.stringify(r)) as Row)
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return out;
}

/** Waits until the projection has applied every event of its slice of the feed. */
export async function caughtUp(app: TestApp, projection: Projection, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const status = (await app.rt.runner.status()).find((s) => s.name === projection.name);
    if (status && status.lag === 0) return;
  }
  throw new Error(`projection ${projection.name} did not catch up`);
}

/** Employees, entries through their workflow (with children), payouts and a reversal, for one tenant. */
export async function writeHistory(app: TestApp, key: string): Promise<void> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(method, path, { key, ...(body === undefined ? {} : { body }) });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const ana = await call('POST', '/api/v1/employees', { firstName: 'Ana', lastName: 'Horvat', position: 'Engineer' });
  const ivo = await call('POST', '/api/v1/employees', { firstName: 'Ivo', lastName: 'Kovač' });
  const cc = await call('POST', '/api/v1/cost-centers', { code: 'CC-1', name: 'Sales' });
  const spare = await call('POST', '/api/v1/cost-centers', { code: 'CC-2', name: 'Spare' });
  await call('PUT', `/api/v1/cost-centers/${spare.id}`, { code: 'CC-2', name: 'Spare', isArchived: true });
  const sales = await call('POST', '/api/v1/departments', { name: 'Sales', code: 'SAL', defaultCostCenterId: cc.id });
  await call('PUT', `/api/v1/employees/${ana.id}`, { firstName: 'Ana', lastName: 'Horvat', position: 'Engineer', departmentId: sales.id });
  const gone = await call('POST', '/api/v1/departments', { name: 'Field', parentId: sales.id });
  await call('DELETE', `/api/v1/departments/${gone.id}`);
  const car = await call('POST', '/api/v1/vehicles', {
    registrationNumber: 'ZG 123-AB',
    ownership: 'Private',
    employeeId: ana.id,
    engineCapacityCc: 1598,
  });
  const van = await call('POST', '/api/v1/vehicles', { registrationNumber: 'ZG-999-X', ownership: 'Company', fuelType: 'Diesel' });
  await call('PUT', `/api/v1/vehicles/${van.id}`, { registrationNumber: 'ZG-999-X', ownership: 'Company' });
  await call('PUT', `/api/v1/employees/${ivo.id}`, { firstName: 'Ivo', lastName: 'Kovač', position: 'Driver' });
  const entry = (employeeId: string, purpose: string) => ({
    employeeId,
    departureDate: '2025-04-14',
    returnDate: '2025-04-15',
    travelType: 'Domestic',
    currencyCode: 'EUR',
    purpose,
    advancePayment: 50,
    expenses: [{ date: '2025-04-14', category: 'Parking', amount: '12.50', currencyCode: 'EUR' }],
    costCenterAllocations: [{ costCenterId: cc.id, share: 100 }],
  });
  const paid = await call('POST', '/api/v1/travel-entries', { ...entry(ana.id, 'Client visit'), vehicleId: car.id });
  await call('POST', `/api/v1/travel-entries/${paid.id}/expenses`, {
    date: '2025-04-15',
    category: 'Meals',
    amount: 20,
    currencyCode: 'EUR',
  });
  await call('POST', `/api/v1/travel-entries/${paid.id}/submit`);
  const reversed = await call('POST', '/api/v1/travel-entries', entry(ivo.id, 'Delivery'));
  await call('POST', `/api/v1/travel-entries/${reversed.id}/submit`);
  const draft = await call('POST', '/api/v1/travel-entries', entry(ivo.id, 'Not yet'));
  await call('PUT', `/api/v1/travel-entries/${draft.id}`, { ...entry(ivo.id, 'Changed plans'), expenses: [] });
  await call('POST', '/api/v1/payouts/batches', { entryIds: [paid.id], payoutMethod: 'BankTransfer', payoutDate: '2025-04-30' });
  const undone = await call('POST', '/api/v1/payouts/batches', { entryIds: [reversed.id], payoutMethod: 'Cash', payoutDate: '2025-04-30' });
  await call('DELETE', `/api/v1/payouts/batches/${undone.id}`);
  await call('POST', `/api/v1/employees/${ivo.id}/archive`);
}

/**
 * The spec every projection has: two tenants' history, the live rows (checked by `expect`, so the
 * spec cannot pass on empty tables), then two rebuilds from position zero that must give them again.
 */
export async function replaysToTheSameRows(t: Test, projection: Projection, expect: (rows: Record<string, Row[]>) => void): Promise<void> {
  const app = await startTestApp(t);
  const other = await app.newTenant({ country: 'SI' });
  await writeHistory(app, app.tenant.key);
  await writeHistory(app, other.key);
  await caughtUp(app, projection);
  const live = await rowsOf(app, projection);
  const rows = Object.values(live).flat();
  t.same(
    [...new Set(rows.map((r) => r.tenant_id))].sort(),
    [app.tenant.id, other.id].sort(),
    'both tenants have rows, under their own ids',
  );
  expect(live);
  for (const round of [1, 2]) {
    await app.rt.runner.rebuild(projection.name);
    await caughtUp(app, projection);
    t.same(await rowsOf(app, projection), live, `rebuild ${round}: the same rows`);
  }
}
