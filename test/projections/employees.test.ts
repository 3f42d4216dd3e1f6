// The employees read model replayed: the rows after a rebuild from position zero, done twice, are the
// rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { employeesProjection } from '../../projections/employees/projection.js';
import { startTestApp } from '../helpers/app.js';
import { caughtUp, rowsOf, writeHistory } from '../helpers/projection-replay.js';

t.test('employees: replaying its events twice gives the same rows', async (t) => {
  const app = await startTestApp(t);
  const other = await app.newTenant({ country: 'SI' });
  await writeHistory(app, app.tenant.key);
  await writeHistory(app, other.key);
  await caughtUp(app, employeesProjection);
  const live = await rowsOf(app, employeesProjection);
  const rows = Object.values(live).flat();
  t.ok(rows.length > 0, `${rows.length} rows to compare`);
  t.same(
    [...new Set(rows.map((r) => r.tenant_id))].sort(),
    [app.tenant.id, other.id].sort(),
    'both tenants have rows, under their own tenant ids',
  );

  const employees = live.rm_employees!;
  t.equal(employees.length, 4, 'two employees per tenant');
  t.equal(employees.filter((r) => r.is_archived === true).length, 2, 'one archived per tenant');

  for (const round of [1, 2]) {
    await app.rt.runner.rebuild(employeesProjection.name);
    await caughtUp(app, employeesProjection);
    t.same(await rowsOf(app, employeesProjection), live, `rebuild ${round}: the same rows`);
  }
});
