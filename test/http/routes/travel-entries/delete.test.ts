// DELETE /api/v1/travel-entries/{id} over real HTTP, with a real webhook receiver: a never-submitted
// draft is deleted (200 with its tombstone), then answers 404 to GET and to writes, leaves the default
// list and shows as a tombstone in the incremental sync (includeDeleted=true); a submitted entry is
// 409 INVALID_TRANSITION naming its status; If-Match 412; another tenant 404; exactly one
// entry.updated webhook with isDeleted true; the entry's attachment bytes go with it.
import t from 'tap';
import { sql } from 'kysely';
import { startWebhookHarness } from '../../../helpers/webhook-harness.js';
import type { TestApp } from '../../../helpers/app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

async function employee(app: TestApp, key: string): Promise<string> {
  const res = await app.request('POST', '/api/v1/employees', { key, body: { firstName: 'Dora', lastName: 'Test' } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.id;
}

async function entry(app: TestApp, key: string, employeeId: string): Promise<any> {
  const res = await app.request('POST', '/api/v1/travel-entries', {
    key,
    body: { employeeId, departureDate: '2026-02-02', returnDate: '2026-02-03', travelType: 'Domestic', currencyCode: 'EUR' },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body;
}

t.test('delete a travel entry', async (t) => {
  const h = await startWebhookHarness(t);
  const { app } = h;
  const tenant = await app.newTenant();
  const other = await app.newTenant();
  const sub = await h.subscribe(['entry.created', 'entry.updated'], { path: '/entries', key: tenant.key });
  t.ok(sub.id);
  const emp = await employee(app, tenant.key);
  const before = new Date(Date.now() - 1000).toISOString();
  const keep = await entry(app, tenant.key, emp);
  const doomed = await entry(app, tenant.key, emp);
  const path = `/api/v1/travel-entries/${doomed.id}`;
  // An attachment, so that its bytes are seen to go with the entry.
  const fd = new FormData();
  fd.append('files', new Blob([PNG], { type: 'image/png' }), 'r.png');
  const up = await fetch(`${app.baseUrl}${path}/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.key}` },
    body: fd,
  });
  t.equal(up.status, 201);
  const blobs = async () =>
    (
      await sql<{ n: number }>`select count(*)::int as n from attachment_blobs where entry_id = ${doomed.id}::uuid`.execute(
        app.rt.handle.db,
      )
    ).rows[0]!.n;
  t.equal(await blobs(), 1);

  await t.test('another tenant: 404, nothing happens', async (t) => {
    const res = await app.request('DELETE', path, { key: other.key });
    t.same([res.status, res.body.code], [404, 'NOT_FOUND']);
  });

  await t.test('a stale If-Match: 412', async (t) => {
    const res = await app.request('DELETE', path, { key: tenant.key, headers: { 'if-match': '"0"' } });
    t.same([res.status, res.body.code], [412, 'PRECONDITION_FAILED']);
  });

  let deletedAt = '';
  await t.test('a draft is deleted: 200 with its tombstone and the new ETag', async (t) => {
    const current = await app.request('GET', path, { key: tenant.key });
    const res = await app.request('DELETE', path, { key: tenant.key, headers: { 'if-match': current.headers.get('etag')! } });
    t.equal(res.status, 200, res.text);
    t.strictSame(Object.keys(res.body).sort(), ['createdAt', 'deletedAt', 'editedAt', 'employeeId', 'entryNumber', 'id', 'isDeleted']);
    t.match(res.body, { id: doomed.id, entryNumber: doomed.entryNumber, employeeId: emp, isDeleted: true });
    t.equal(res.body.editedAt, res.body.deletedAt);
    t.equal(res.headers.get('etag'), `"${Number(JSON.parse(current.headers.get('etag')!)) + 1}"`);
    deletedAt = res.body.deletedAt;
    t.equal(await blobs(), 0, "the entry's attachment bytes are deleted with it");
  });

  await t.test('then 404 to GET, to every write and to a second delete', async (t) => {
    for (const [method, p, body] of [
      ['GET', path, undefined],
      ['DELETE', path, undefined],
      [
        'PUT',
        path,
        { employeeId: emp, departureDate: '2026-02-02', returnDate: '2026-02-03', travelType: 'Domestic', currencyCode: 'EUR' },
      ],
      ['POST', `${path}/expenses`, { date: '2026-02-02', category: 'Parking', amount: 5, currencyCode: 'EUR' }],
      ['POST', `${path}/submit`, undefined],
      ['POST', `${path}/cancel`, {}],
    ] as const) {
      const res = await app.request(method, p, { key: tenant.key, ...(body ? { body } : {}) });
      t.same([res.status, res.body.code], [404, 'NOT_FOUND'], `${method} ${p}`);
    }
  });

  await t.test('the default list leaves it out; includeDeleted lists its tombstone', async (t) => {
    const plain = await app.request('GET', '/api/v1/travel-entries', { key: tenant.key });
    t.same(
      plain.body.items.map((i: any) => i.id),
      [keep.id],
    );
    t.equal(plain.body.total, 1);
    const sync = await app.request('GET', `/api/v1/travel-entries?includeDeleted=true&updatedSince=${encodeURIComponent(before)}`, {
      key: tenant.key,
    });
    t.equal(sync.status, 200, sync.text);
    t.equal(sync.body.total, 2);
    const tomb = sync.body.items.find((i: any) => i.id === doomed.id);
    t.strictSame(tomb, {
      id: doomed.id,
      entryNumber: doomed.entryNumber,
      employeeId: emp,
      isDeleted: true,
      deletedAt,
      createdAt: doomed.createdAt,
      editedAt: deletedAt,
    });
    t.match(
      sync.body.items.find((i: any) => i.id === keep.id),
      { id: keep.id, status: 'Draft' },
      'live entries as always',
    );
    t.notOk('isDeleted' in sync.body.items.find((i: any) => i.id === keep.id));
    const later = await app.request('GET', `/api/v1/travel-entries?includeDeleted=true&updatedSince=${encodeURIComponent(deletedAt)}`, {
      key: tenant.key,
    });
    t.same(
      later.body.items.map((i: any) => i.id),
      [doomed.id],
      'a sync from the deletion on sees only the tombstone',
    );
    const foreign = await app.request('GET', '/api/v1/travel-entries?includeDeleted=true', { key: other.key });
    t.same(foreign.body.items, [], "another tenant sees no tombstone of this tenant's");
  });

  await t.test('a submitted entry: 409 INVALID_TRANSITION naming the status', async (t) => {
    const submitted = await entry(app, tenant.key, emp);
    const s = await app.request('POST', `/api/v1/travel-entries/${submitted.id}/submit`, { key: tenant.key });
    t.equal(s.status, 200, s.text);
    const res = await app.request('DELETE', `/api/v1/travel-entries/${submitted.id}`, { key: tenant.key });
    t.same([res.status, res.body.code], [409, 'INVALID_TRANSITION']);
    t.match(res.body.detail, s.body.status);
    t.equal(res.body.currentStatus, s.body.status);
    const still = await app.request('GET', `/api/v1/travel-entries/${submitted.id}`, { key: tenant.key });
    t.equal(still.status, 200, 'it is still there');
  });

  await t.test('exactly one entry.updated webhook with isDeleted true', async (t) => {
    // created (keep), created (doomed), updated (attachment), updated (deleted), then the submitted entry's created and updates.
    const got = (await h.waitForRequests('/entries', 4)).map((r) => JSON.parse(r.body.toString('utf8')));
    await new Promise((r) => setTimeout(r, 500));
    const all = h.received('/entries').map((r) => JSON.parse(r.body.toString('utf8')));
    t.ok(got.length <= all.length);
    const ofDoomed = all.filter((b: any) => b.data.id === doomed.id);
    t.same(
      ofDoomed.map((b: any) => b.type),
      ['entry.created', 'entry.updated', 'entry.updated'],
    );
    const deletions = all.filter((b: any) => b.data.isDeleted === true);
    t.equal(deletions.length, 1, 'one deletion webhook');
    t.match(deletions[0], { type: 'entry.updated', data: { id: doomed.id, isDeleted: true, status: 0, editedAt: deletedAt } });
    t.ok(
      all
        .filter((b: any) => b.data.id !== doomed.id || b !== deletions[0])
        .every((b: any) => b.data.isDeleted === false || b === deletions[0]),
      'every other summary says isDeleted false',
    );
  });
});
