// The travel-entries read model replayed: the rows after a rebuild from position zero, done twice, are the
// rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { travelEntriesProjection } from '../../projections/travel-entries/projection.js';
import { caughtUp, replaysToTheSameRows, rowsOf, writeHistory } from '../helpers/projection-replay.js';
import { startTestApp } from '../helpers/app.js';

t.test('travel-entries: replaying its events twice gives the same rows', (t) =>
  replaysToTheSameRows(t, travelEntriesProjection, (live) => {
    const entries = live.rm_travel_entries!;
    t.equal(entries.length, 6, 'three entries per tenant');
    t.same(
      entries.map((r) => r.status).sort(),
      ['Approved', 'Approved', 'Approved', 'Approved', 'Draft', 'Draft'],
      'paid, reversed (approved again) and a draft per tenant',
    );
  }),
);

t.test('travel-entries: a deleted draft replays to the same tombstone row', async (t) => {
  const app = await startTestApp(t);
  await writeHistory(app, app.tenant.key);
  const emp = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Eva', lastName: 'Novak' } });
  const created = await app.request('POST', '/api/v1/travel-entries', {
    body: { employeeId: emp.body.id, departureDate: '2025-05-05', returnDate: '2025-05-05', travelType: 'Domestic', currencyCode: 'EUR' },
  });
  t.equal(created.status, 201);
  const deleted = await app.request('DELETE', `/api/v1/travel-entries/${created.body.id}`);
  t.equal(deleted.status, 200);
  await caughtUp(app, travelEntriesProjection);
  const live = await rowsOf(app, travelEntriesProjection);
  const tombstones = live.rm_travel_entries!.filter((r) => r.deleted_at !== null);
  t.equal(tombstones.length, 1, 'one tombstone');
  t.match(tombstones[0], { id: created.body.id, status: 'Draft', ready_for_payout: false, doc: { kind: 'Deleted' } });
  t.equal(new Date(String(tombstones[0]!.deleted_at)).toISOString(), deleted.body.deletedAt);
  t.equal(live.rm_travel_entries!.length, 4, 'three entries of the history and the tombstone');
  for (const round of [1, 2]) {
    await app.rt.runner.rebuild(travelEntriesProjection.name);
    await caughtUp(app, travelEntriesProjection);
    t.same(await rowsOf(app, travelEntriesProjection), live, `rebuild ${round}: the same rows, the tombstone included`);
  }
});
