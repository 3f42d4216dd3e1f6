// The travel-entries read model replayed: the rows after a rebuild from position zero, done twice, are the
// rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { travelEntriesProjection } from '../../projections/travel-entries/projection.js';
import { startTestApp } from '../helpers/app.js';
import { caughtUp, rowsOf, writeHistory } from '../helpers/projection-replay.js';

t.test('travel-entries: replaying its events twice gives the same rows', async (t) => {
  const app = await startTestApp(t);
  const other = await app.newTenant({ country: 'SI' });
  await writeHistory(app, app.tenant.key);
  await writeHistory(app, other.key);
  await caughtUp(app, travelEntriesProjection);
  const live = await rowsOf(app, travelEntriesProjection);
  const rows = Object.values(live).flat();
  t.ok(rows.length > 0, `${rows.length} rows to compare`);
  t.same(
    [...new Set(rows.map((r) => r.tenant_id))].sort(),
    [app.tenant.id, other.id].sort(),
    'both tenants have rows, under their own tenant ids',
  );

  const entries = live.rm_travel_entries!;
  t.equal(entries.length, 6, 'three entries per tenant');
  t.same(
    entries.map((r) => r.status).sort(),
    ['Approved', 'Approved', 'Approved', 'Approved', 'Draft', 'Draft'],
    'paid, reversed (approved again) and a draft per tenant',
  );

  for (const round of [1, 2]) {
    await app.rt.runner.rebuild(travelEntriesProjection.name);
    await caughtUp(app, travelEntriesProjection);
    t.same(await rowsOf(app, travelEntriesProjection), live, `rebuild ${round}: the same rows`);
  }
});
