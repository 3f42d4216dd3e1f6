// The list serves stored JSON text (issue 13): a page is, byte for byte, the envelope around what
// GET answers for each entry (and DELETE for a tombstone), with the current names of vehicles and
// cost centers spliced in (a rename shows at once), also for rows stored before the text existed
// (list_json null), which are made from their document on the read. Totals on numbered pages only,
// cursors unchanged, and a cached page never outlives a write.
import t, { type Test } from 'tap';
import { sql } from 'kysely';
import { startTestApp } from '../../../helpers/app.js';

/**
 * Byte equality of two response texts. On a difference it names the first differing position with
 * the text around it escaped: the entries hold a raw U+2028, which would garble the TAP stream.
 */
function sameText(t: Test, actual: string, expected: string, message: string): void {
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 80), i + 80)).replace(/\u2028/g, '\\u2028');
  if (actual === expected) t.pass(message);
  else t.fail(`${message}: differs at ${i}: ${around(actual)} vs expected ${around(expected)}`);
}

t.test('list pages are the GET bytes of their entries', async (t) => {
  const app = await startTestApp(t);
  const emp = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Horvat' } })).body.id as string;
  const cc1 = (await app.request('POST', '/api/v1/cost-centers', { body: { code: 'CC-1', name: 'Sales "Zagreb" \u2013 Nord' } })).body;
  const cc2 = (await app.request('POST', '/api/v1/cost-centers', { body: { code: 'CC-2', name: 'Ops' } })).body;
  const car = (
    await app.request('POST', '/api/v1/vehicles', {
      body: { registrationNumber: 'ZG 1234-AB', make: 'Škoda', model: null, ownership: 'Company' },
    })
  ).body;
  const rich = await app.request('POST', '/api/v1/travel-entries', {
    body: {
      employeeId: emp,
      departureDate: '2026-03-02',
      returnDate: '2026-03-04',
      travelType: 'Foreign',
      destination: 'Wien \u0001v "Mitte"',
      purpose: 'Workshop \u2028 with control characters and quotes "',
      currencyCode: 'EUR',
      advancePayment: '100.50',
      vehicleId: car.id.toUpperCase(),
      expenses: [
        { date: '2026-03-02', category: 'Hotel', amount: '200.00', currencyCode: 'EUR' },
        { date: '2026-03-03', category: 'Taxi', description: 'to the airport', amount: 12.5, currencyCode: 'EUR' },
      ],
      perDiems: [{ countryCode: 'AT', departureTime: '2026-03-02T06:00:00Z', arrivalTime: '2026-03-04T18:00:00Z', mealsProvided: 2 }],
      costCenterAllocations: [
        { costCenterId: cc1.id, share: 60 },
        { costCenterId: cc2.id, share: '40' },
      ],
    },
  });
  t.equal(rich.status, 201, 'created (the response text holds a raw U+2028: not a message)');
  const bareBody = { employeeId: emp, departureDate: '2026-02-02', returnDate: '2026-02-03', travelType: 'Domestic', currencyCode: 'EUR' };
  const exported = (await app.request('POST', '/api/v1/travel-entries', { body: bareBody })).body;
  const submitted = await app.request('POST', `/api/v1/travel-entries/${exported.id}/submit`);
  t.equal(submitted.body.status, 'Approved', submitted.text);
  const exp = await app.request('POST', `/api/v1/travel-entries/${exported.id}/exports`, {
    body: { system: 'sap-fi', status: 'posted', externalId: '51000' },
  });
  t.equal(exp.status, 200, exp.text);
  await app.request('POST', `/api/v1/travel-entries/${exported.id}/exports`, {
    body: { system: 'datev', status: 'failed', failureReason: 'closed period' },
  });
  const doomed = (await app.request('POST', '/api/v1/travel-entries', { body: bareBody })).body;
  const deleted = await app.request('DELETE', `/api/v1/travel-entries/${doomed.id}`);
  t.equal(deleted.status, 200, deleted.text);
  const ids = [rich.body.id as string, exported.id as string];

  const getTexts = async (): Promise<string[]> =>
    Promise.all(ids.map(async (id) => (await app.request('GET', `/api/v1/travel-entries/${id}`)).text));
  const expectPage = (items: string[], total: number) =>
    `{"items":[${items.join(',')}],"page":1,"pageSize":50,"total":${total},"nextCursor":null}`;

  const list = await app.request('GET', '/api/v1/travel-entries?pageSize=50');
  t.equal(list.status, 200);
  t.match(list.headers.get('content-type'), /^application\/json; charset=utf-8/);
  sameText(t, list.text, expectPage(await getTexts(), 2), 'the page is the GET bytes of each entry in the envelope');
  t.equal(list.body.items[0].vehicle.registrationNumber, 'ZG 1234-AB', 'an upper-case vehicle id finds its vehicle');
  t.equal(list.body.items[0].vehicle.id, car.id, 'and shows the id lower-case, as it was stored (validation.ts, x-lowercase)');
  t.same(
    list.body.items[1].exports.map((x: any) => x.system),
    ['datev', 'sap-fi'],
    'exports by system name',
  );
  // Compared as code points: a raw control character in a failure's diagnostics would garble the TAP stream.
  t.same(
    [...list.body.items[0].destination].map((c: string) => c.codePointAt(0)),
    [...'Wien \u0001v "Mitte"'].map((c) => c.codePointAt(0)),
    'a control character in content is content',
  );

  const withDeleted = await app.request('GET', '/api/v1/travel-entries?pageSize=50&includeDeleted=true');
  sameText(t, withDeleted.text, expectPage([...(await getTexts()), deleted.text], 3), 'a tombstone is what DELETE answered');

  await app.request('PUT', `/api/v1/cost-centers/${cc1.id}`, { body: { code: 'CC-10', name: 'Sales Split' } });
  await app.request('PUT', `/api/v1/vehicles/${car.id}`, {
    body: { registrationNumber: 'ST 42-X', make: 'Škoda', model: 'Superb', ownership: 'Company' },
  });
  const renamed = await app.request('GET', '/api/v1/travel-entries?pageSize=50');
  t.match(renamed.body.items[0].costCenterAllocations, [
    { costCenterCode: 'CC-10', costCenterName: 'Sales Split' },
    { costCenterCode: 'CC-2' },
  ]);
  t.equal(renamed.body.items[0].vehicle.registrationNumber, 'ST 42-X', 'a rename shows at once');
  sameText(t, renamed.text, expectPage(await getTexts(), 2), 'and the bytes still equal GET');

  // The text is made by the first list read after a write and stored (list-json-fill.ts); every
  // write clears it. Rows written before migration 2026_11_26_0500 have none either: the same path.
  const storedTexts = async (): Promise<Map<string, string | null>> => {
    const r = await sql<{ id: string; list_json: string | null }>`
      select id::text as id, list_json from rm_travel_entries`.execute(app.rt.handle.db);
    return new Map(r.rows.map((x) => [x.id, x.list_json]));
  };
  t.equal(
    [...(await storedTexts()).values()].filter((x) => x !== null).length,
    3,
    'the reads stored the text of every row, tombstones too',
  );
  await app.request('POST', `/api/v1/travel-entries/${exported.id}/exports`, {
    body: { system: 'datev', status: 'posted', externalId: 'D-1' },
  });
  const afterWrite = await storedTexts();
  t.equal(afterWrite.get(exported.id), null, 'a write of the row clears its text');
  t.not(afterWrite.get(rich.body.id), null, 'and leaves the other rows their text');
  const rewritten = await app.request('GET', '/api/v1/travel-entries?pageSize=50');
  t.match(rewritten.body.items[1].exports, [{ system: 'datev', status: 'posted' }, { system: 'sap-fi' }], 'the write shows in the list');
  sameText(t, rewritten.text, expectPage(await getTexts(), 2), 'with the GET bytes, made from the document');
  const refilled = (await storedTexts()).get(exported.id) ?? null;
  t.not(refilled, null, 'and stored again by that read');
  t.ok(refilled?.includes('"D-1"'), 'the stored text is the new revision');

  await sql`update rm_travel_entries set list_json = null`.execute(app.rt.handle.db);
  const old = await app.request('GET', '/api/v1/travel-entries?pageSize=50&includeDeleted=true');
  sameText(t, old.text, expectPage([...(await getTexts()), deleted.text], 3), 'rows without text: the same bytes');
  const again = await app.request('GET', '/api/v1/travel-entries?pageSize=50&includeDeleted=true');
  sameText(t, again.text, old.text, 'and the same once their text is stored');
});

t.test('the total and the cursors', async (t) => {
  const app = await startTestApp(t);
  const emp = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ivo', lastName: 'Test' } })).body.id as string;
  const body = { employeeId: emp, departureDate: '2026-02-02', returnDate: '2026-02-03', travelType: 'Domestic', currencyCode: 'EUR' };
  const created: string[] = [];
  for (let i = 0; i < 5; i++) created.push((await app.request('POST', '/api/v1/travel-entries', { body })).body.id);

  const page2 = await app.request('GET', '/api/v1/travel-entries?pageSize=2&page=2');
  t.same([page2.body.page, page2.body.pageSize, page2.body.total, page2.body.items.length], [2, 2, 5, 2], 'numbered pages: the total');
  t.same(
    page2.body.items.map((x: any) => x.id),
    created.slice(2, 4),
  );
  const beyond = await app.request('GET', '/api/v1/travel-entries?pageSize=2&page=9');
  t.same([beyond.body.items, beyond.body.total, beyond.body.nextCursor], [[], 5, null], 'past the end: no items, still the total');

  const seen: string[] = [];
  let res = await app.request('GET', '/api/v1/travel-entries?pageSize=2');
  t.equal(res.body.total, 5);
  for (;;) {
    seen.push(...res.body.items.map((x: any) => x.id));
    if (res.body.nextCursor === null) break;
    res = await app.request('GET', `/api/v1/travel-entries?pageSize=2&cursor=${res.body.nextCursor}`);
    t.equal(res.status, 200, res.text);
    t.notOk('total' in res.body, 'a cursor page has no total (and costs no count)');
    t.notOk('page' in res.body);
  }
  t.same(seen, created, 'cursors page through every entry once, in creation order');

  // On PostgreSQL pages are cached per process (read-cache.ts readPage): a write is seen by the next read.
  const first = await app.request('GET', '/api/v1/travel-entries?pageSize=50');
  t.same(
    [first.body.total, (await app.request('GET', '/api/v1/travel-entries?pageSize=50')).text],
    [5, first.text],
    'read twice: the same',
  );
  const sixth = (await app.request('POST', '/api/v1/travel-entries', { body })).body.id;
  const after = await app.request('GET', '/api/v1/travel-entries?pageSize=50');
  t.same([after.body.total, after.body.items.at(-1).id], [6, sixth], 'a create shows on the next read of a cached page');
  await app.request('PUT', `/api/v1/travel-entries/${sixth}`, { body: { ...body, purpose: 'changed' } });
  const edited = await app.request('GET', '/api/v1/travel-entries?pageSize=50');
  t.equal(edited.body.items.at(-1).purpose, 'changed', 'an edit too');
});
