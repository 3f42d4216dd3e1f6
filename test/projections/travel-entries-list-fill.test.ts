// The list's stored text is made by a read and stored by storeMadeTexts (list-json-fill.ts): only
// for a row still at the revision that was read, still without text, and of the reader's tenant, so
// a read racing a projection write never stores an older text over the write's cleared one.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { travelEntriesProjection } from '../../projections/travel-entries/projection.js';
import { storeMadeTexts } from '../../projections/travel-entries/list-json-fill.js';
import { caughtUp } from '../helpers/projection-replay.js';
import { startTestApp } from '../helpers/app.js';

t.test('travel-entries: a made text is stored only at the revision read, once, for its tenant', async (t) => {
  const app = await startTestApp(t);
  const db = app.rt.handle.db;
  const emp = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Eva', lastName: 'Novak' } });
  const created = await app.request('POST', '/api/v1/travel-entries', {
    body: { employeeId: emp.body.id, departureDate: '2025-05-05', returnDate: '2025-05-05', travelType: 'Domestic', currencyCode: 'EUR' },
  });
  t.equal(created.status, 201);
  await caughtUp(app, travelEntriesProjection);
  const row = async () =>
    (
      await sql<{ revision: number; list_json: string | null }>`
        select revision, list_json from rm_travel_entries where id = ${created.body.id}::uuid`.execute(db)
    ).rows[0]!;
  const { revision, list_json } = await row();
  t.equal(list_json, null, 'the projection writes no text');
  const id = created.body.id as string;

  await storeMadeTexts(db, app.tenant.id, [{ id, revision: revision - 1, text: '"older"' }]);
  t.equal((await row()).list_json, null, 'a text made from an older revision is not stored');
  await storeMadeTexts(db, randomUUID(), [{ id, revision, text: '"other tenant"' }]);
  t.equal((await row()).list_json, null, 'nor for another tenant');
  await storeMadeTexts(db, app.tenant.id, [{ id, revision, text: '"made"' }]);
  t.equal((await row()).list_json, '"made"', 'the revision read: stored');
  await storeMadeTexts(db, app.tenant.id, [{ id, revision, text: '"again"' }]);
  t.equal((await row()).list_json, '"made"', 'a stored text is not replaced by a later read');

  await app.request('DELETE', `/api/v1/travel-entries/${id}`);
  await caughtUp(app, travelEntriesProjection);
  t.equal((await row()).list_json, null, 'a write of the row clears it');
});
