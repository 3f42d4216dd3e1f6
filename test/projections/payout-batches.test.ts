// The payout-batches read model replayed: the rows after a rebuild from position zero, done twice, are the
// rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { payoutBatchesProjection } from '../../projections/payout-batches/projection.js';
import { startTestApp } from '../helpers/app.js';
import { caughtUp, rowsOf, writeHistory } from '../helpers/projection-replay.js';

t.test('payout-batches: replaying its events twice gives the same rows', async (t) => {
  const app = await startTestApp(t);
  const other = await app.newTenant({ country: 'SI' });
  await writeHistory(app, app.tenant.key);
  await writeHistory(app, other.key);
  await caughtUp(app, payoutBatchesProjection);
  const live = await rowsOf(app, payoutBatchesProjection);
  const rows = Object.values(live).flat();
  t.ok(rows.length > 0, `${rows.length} rows to compare`);
  t.same(
    [...new Set(rows.map((r) => r.tenant_id))].sort(),
    [app.tenant.id, other.id].sort(),
    'both tenants have rows, under their own tenant ids',
  );

  const batches = live.rm_payout_batches!;
  t.equal(batches.length, 4, 'two batches per tenant');
  t.same(batches.map((r) => r.status).sort(), ['Created', 'Created', 'Deleted', 'Deleted'], 'one paid, one reversed per tenant');

  for (const round of [1, 2]) {
    await app.rt.runner.rebuild(payoutBatchesProjection.name);
    await caughtUp(app, payoutBatchesProjection);
    t.same(await rowsOf(app, payoutBatchesProjection), live, `rebuild ${round}: the same rows`);
  }
});
