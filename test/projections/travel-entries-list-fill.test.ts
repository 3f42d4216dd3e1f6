// The list's stored text is made by a read and stored by storeMadeTexts (list-json-fill.ts): only
// for a row still at the revision that was read, still without text, and of the reader's tenant, so
// a read racing a projection write never stores an older text over the write's cleared one.
import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { travelEntriesProjection } from '../../projections/travel-entries/projection.js';
import { storeMadeTexts } from '../../projections/travel-entries/list-json-fill.js';
import { LIST_TEXT_VERSION } from '../../projections/travel-entries/list-json.js';
import { listTravelEntryJson } from '../../projections/travel-entries/queries.js';
import { caughtUp } from '../helpers/projection-replay.js';
import { startTestApp } from '../helpers/app.js';

/** An app with one domestic entry, projected; the entry's id. */
async function appWithOneEntry(t: Test) {
  const app = await startTestApp(t);
  const emp = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Eva', lastName: 'Novak' } });
  const created = await app.request('POST', '/api/v1/travel-entries', {
    body: { employeeId: emp.body.id, departureDate: '2025-05-05', returnDate: '2025-05-05', travelType: 'Domestic', currencyCode: 'EUR' },
  });
  t.equal(created.status, 201);
  await caughtUp(app, travelEntriesProjection);
  return { app, db: app.rt.handle.db, id: created.body.id as string };
}

t.test('travel-entries: a made text is stored only at the revision read, once, for its tenant', async (t) => {
  const { app, db, id } = await appWithOneEntry(t);
  const row = async () =>
    (
      await sql<{ revision: number; list_json: string | null; list_json_version: number | null }>`
        select revision, list_json, list_json_version from rm_travel_entries where id = ${id}::uuid`.execute(db)
    ).rows[0]!;
  const { revision, list_json } = await row();
  t.equal(list_json, null, 'the projection writes no text');

  await storeMadeTexts(db, app.tenant.id, [{ id, revision: revision - 1, text: '"older"' }]);
  t.equal((await row()).list_json, null, 'a text made from an older revision is not stored');
  await storeMadeTexts(db, randomUUID(), [{ id, revision, text: '"other tenant"' }]);
  t.equal((await row()).list_json, null, 'nor for another tenant');
  await storeMadeTexts(db, app.tenant.id, [{ id, revision, text: '"made"' }]);
  t.same(
    [(await row()).list_json, (await row()).list_json_version],
    ['"made"', LIST_TEXT_VERSION],
    'the revision read: stored, stamped with its version',
  );
  await storeMadeTexts(db, app.tenant.id, [{ id, revision, text: '"again"' }]);
  t.equal((await row()).list_json, '"made"', 'a stored text is not replaced by a later read');

  await app.request('DELETE', `/api/v1/travel-entries/${id}`);
  await caughtUp(app, travelEntriesProjection);
  t.same([(await row()).list_json, (await row()).list_json_version], [null, null], 'a write of the row clears it');
});

t.test('travel-entries: a text of another version is never served; an older one is replaced, a newer one kept', async (t) => {
  const { app, db, id } = await appWithOneEntry(t);
  const stored = async () =>
    (
      await sql<{ list_json: string | null; list_json_version: number | null }>`
        select list_json, list_json_version from rm_travel_entries where id = ${id}::uuid`.execute(db)
    ).rows[0]!;
  const listedId = async (): Promise<string> => {
    const page = await listTravelEntryJson(db, app.tenant.id, { page: { start: { offset: 0 }, pageSize: 50 } });
    t.equal(page.items.length, 1);
    return JSON.parse(page.items[0]!).id;
  };
  await listedId();
  const made = (await stored()).list_json;
  t.ok(made?.includes(id), 'the first read stored the text');

  // A text an earlier release stored (before versions, or of an older one) is made again and replaced.
  for (const older of [null, LIST_TEXT_VERSION - 1]) {
    await sql`update rm_travel_entries set list_json = '"older shape"', list_json_version = ${older} where id = ${id}::uuid`.execute(db);
    t.equal(await listedId(), id, `version ${older}: not served, made from the document`);
    t.same(await stored(), { list_json: made, list_json_version: LIST_TEXT_VERSION }, `version ${older}: replaced`);
  }
  // A newer release's text (a rolling deploy): this process answers in its own shape and leaves it.
  await sql`update rm_travel_entries set list_json = '"newer shape"', list_json_version = ${LIST_TEXT_VERSION + 1} where id = ${id}::uuid`.execute(
    db,
  );
  t.equal(await listedId(), id, 'a newer text is not served either');
  t.same(await stored(), { list_json: '"newer shape"', list_json_version: LIST_TEXT_VERSION + 1 }, 'and is kept for the newer processes');
  // An older release's projection clears the text but not its stamp: no text, so made again.
  await sql`update rm_travel_entries set list_json = null, list_json_version = ${LIST_TEXT_VERSION} where id = ${id}::uuid`.execute(db);
  t.equal(await listedId(), id);
  t.same(await stored(), { list_json: made, list_json_version: LIST_TEXT_VERSION }, 'a stamp without a text: made and stored');
});

t.test('travel-entries: a list read whose text store fails still answers the page, and says so', async (t) => {
  const { app, db, id } = await appWithOneEntry(t);
  // A real failure of the store's UPDATE: a trigger that refuses any write of the text.
  await sql`create function refuse_list_json() returns trigger language plpgsql as $$
    begin raise exception 'list_json refused'; end $$`.execute(db);
  await sql`create trigger refuse_list_json before update of list_json on rm_travel_entries
    for each row execute function refuse_list_json()`.execute(db);
  t.teardown(async () => {
    await sql`drop trigger if exists refuse_list_json on rm_travel_entries`.execute(db);
    await sql`drop function if exists refuse_list_json()`.execute(db);
  });
  const errors: unknown[] = [];
  const page = await listTravelEntryJson(db, app.tenant.id, { page: { start: { offset: 0 }, pageSize: 50 } }, (err) => errors.push(err));
  t.equal(page.items.length, 1, 'the page answers with the text made by the read');
  t.same(JSON.parse(page.items[0]!).id, id);
  t.equal(errors.length, 1, 'the failed store is reported to the caller');
  t.match(String(errors[0]), /list_json refused/);
  const listed = await app.request('GET', '/api/v1/travel-entries?pageSize=50');
  t.equal(listed.status, 200, 'over HTTP too');
  t.equal(listed.body.items.length, 1);
});
