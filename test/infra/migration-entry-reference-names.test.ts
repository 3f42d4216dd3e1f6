// Migration 2026_11_29_0300 fills rm_entry_reference_names from the vehicles' and cost centers' own
// tables, once, on a database that already holds them; the travel-entries projection keeps it from
// then on. The backfill must give the rows the projection would have written: the table is taken
// down and brought up again over a history the projection has applied, and compared.
import t from 'tap';
import { sql } from 'kysely';
import { migrator } from '../../src/infra/migrate.js';
import { travelEntriesProjection } from '../../projections/travel-entries/projection.js';
import { caughtUp, writeHistory } from '../helpers/projection-replay.js';
import { startTestApp } from '../helpers/app.js';
import { TEST_DATABASE_URL } from '../helpers/db.js';

const BEFORE = '2026_11_29_0200_travel_entry_list_json_version';

t.test('the backfill of rm_entry_reference_names gives the rows the projection keeps', async (t) => {
  const app = await startTestApp(t);
  const other = await app.newTenant({ country: 'SI' });
  await writeHistory(app, app.tenant.key);
  await writeHistory(app, other.key);
  // What writeHistory leaves out: a vehicle renamed, and a vehicle and a cost center deleted.
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(method, path, body === undefined ? {} : { body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const car = await call('POST', '/api/v1/vehicles', { registrationNumber: 'RI 1-A', ownership: 'Company', make: 'Škoda' });
  await call('PUT', `/api/v1/vehicles/${car.id}`, { registrationNumber: 'RI 2-B', ownership: 'Company', make: 'Škoda', model: 'Octavia' });
  const sold = await call('POST', '/api/v1/vehicles', { registrationNumber: 'RI 3-C', ownership: 'Company' });
  await call('DELETE', `/api/v1/vehicles/${sold.id}`);
  const closed = await call('POST', '/api/v1/cost-centers', { code: 'CC-9', name: 'Closed' });
  await call('DELETE', `/api/v1/cost-centers/${closed.id}`);
  await caughtUp(app, travelEntriesProjection);

  const db = app.rt.handle.db;
  const names = async () =>
    (await sql<Record<string, unknown>>`select * from rm_entry_reference_names order by tenant_id, kind, id`.execute(db)).rows;
  const kept = await names();
  t.equal(kept.filter((r) => r.kind === 'vehicle').length, 5, 'two vehicles per tenant and the renamed one; the deleted one is not kept');
  t.equal(
    kept.filter((r) => r.kind === 'costCenter').length,
    4,
    'two cost centers per tenant, the archived one among them; the deleted one is not kept',
  );
  t.ok(
    kept.some((r) => r.code === 'RI 2-B' && r.name === 'Škoda' && r.model === 'Octavia'),
    'the renamed vehicle under its new names',
  );

  const schema = TEST_DATABASE_URL ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s : undefined;
  const down = await migrator(db, schema).migrateTo(BEFORE);
  t.error(down.error, 'migrated down to the migration before');
  t.same(
    down.results?.map((r) => [r.migrationName, r.direction]),
    [['2026_11_29_0300_entry_reference_names', 'Down']],
    'only the reference-names migration was undone',
  );
  const up = await migrator(db, schema).migrateToLatest();
  t.error(up.error, 'migrated up again');
  t.same(await names(), kept, 'the backfill gives the same rows');
});
