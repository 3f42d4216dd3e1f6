// POST /api/v1/travel-entries as multipart/form-data: the entry (a JSON part `entry`, the same body as
// the JSON create) with its files, all or nothing. Success with two files and one entry.created
// webhook; a bad file or a bad entry part refuses everything (no entry, no blob, no number used);
// a refusal after the decision (an unknown employee) leaves no blob either; Idempotency-Key replays.
import t, { type Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { startWebhookHarness } from '../../../helpers/webhook-harness.js';
import type { TestApp, TestResponse } from '../../../helpers/app.js';
import { sweepOrphanBlobs } from '../../../../src/attachments/blob-store.js';

const pdf = (extra = 64): Buffer => Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), randomBytes(extra)]);
const png = (extra = 64): Buffer => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(extra)]);

interface FilePart {
  bytes: Uint8Array | string;
  name?: string;
  type?: string;
  field?: string;
}

function form(entry: unknown, files: FilePart[], o: { entryAsFile?: boolean } = {}): FormData {
  const fd = new FormData();
  if (entry !== undefined) {
    const text = typeof entry === 'string' ? entry : JSON.stringify(entry);
    if (o.entryAsFile) fd.append('entry', new Blob([text], { type: 'application/json' }), 'entry.json');
    else fd.append('entry', text);
  }
  for (const f of files) fd.append(f.field ?? 'files', new Blob([f.bytes], f.type === undefined ? {} : { type: f.type }), f.name ?? 'file');
  return fd;
}

async function post(app: TestApp, key: string, body: FormData, headers: Record<string, string> = {}): Promise<TestResponse> {
  const res = await fetch(`${app.baseUrl}/api/v1/travel-entries`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...headers },
    body,
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text.length > 0;
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text, text };
}

t.test('atomic create with attachments', async (t) => {
  const h = await startWebhookHarness(t);
  const { app } = h;
  const tenant = await app.newTenant();
  await h.subscribe(['entry.created', 'entry.updated'], { path: '/mp', key: tenant.key });
  const emp = await app.request('POST', '/api/v1/employees', { key: tenant.key, body: { firstName: 'Mia', lastName: 'Test' } });
  const employeeId = emp.body.id as string;
  const body = {
    employeeId,
    departureDate: '2026-02-02',
    returnDate: '2026-02-03',
    travelType: 'Domestic',
    currencyCode: 'EUR',
    purpose: 'Site visit',
    expenses: [{ date: '2026-02-02', category: 'Parking', amount: '12.50', currencyCode: 'EUR' }],
  };
  const db = app.rt.handle.db;
  const counts = async () => {
    const r = await sql<{ blobs: number; entries: number }>`
      select (select count(*)::int from attachment_blobs where tenant_id = ${tenant.id}::uuid) as blobs,
             (select count(*)::int from rm_travel_entries where tenant_id = ${tenant.id}::uuid) as entries`.execute(db);
    return r.rows[0]!;
  };

  let firstId = '';
  await t.test('an entry with two files: 201, both attachments listed and downloadable', async (t) => {
    const a = pdf(200);
    const b = png(300);
    const res = await post(
      app,
      tenant.key,
      form(body, [
        { bytes: a, name: 'receipt.pdf', type: 'application/pdf' },
        { bytes: b, name: 'ticket.png' },
      ]),
    );
    t.equal(res.status, 201, res.text);
    firstId = res.body.id;
    t.equal(res.headers.get('location'), `/api/v1/travel-entries/${firstId}`);
    t.equal(res.headers.get('etag'), '"0"', 'one event');
    t.match(res.body, { employeeId, purpose: 'Site visit', status: 'Draft', expenses: [{ category: 'Parking', amount: 12.5 }] });
    t.match(res.body.entryNumber, /^\d{4}-\d{5}$/);
    t.same(
      res.body.attachments.map((x: any) => [x.fileName, x.contentType, x.size]),
      [
        ['receipt.pdf', 'application/pdf', a.length],
        ['ticket.png', 'image/png', b.length],
      ],
    );
    const got = await app.request('GET', `/api/v1/travel-entries/${firstId}`, { key: tenant.key });
    t.same(got.body.attachments, res.body.attachments);
    const dl = await fetch(`${app.baseUrl}/api/v1/travel-entries/${firstId}/attachments/${res.body.attachments[1].id}/content`, {
      headers: { authorization: `Bearer ${tenant.key}` },
    });
    t.equal(dl.status, 200);
    t.same(Buffer.from(await dl.arrayBuffer()), b);
    const events = await app.rt.store.readStream(`travelEntry-${firstId}`);
    t.same(
      events.map((e) => e.type),
      ['TravelEntryCreated'],
    );
    t.same(await counts(), { blobs: 2, entries: 1 });
  });

  await t.test('the entry part may also be a file part of type application/json', async (t) => {
    // Saved by an editor that starts the file with a byte-order mark, as a JSON body may start.
    const text = `\ufeff${JSON.stringify(body)}`;
    const res = await post(app, tenant.key, form(text, [{ bytes: pdf(), name: 'r.pdf' }], { entryAsFile: true }));
    t.equal(res.status, 201, res.text);
    t.equal(res.body.attachments.length, 1);
  });

  const before = await counts();
  const nothingStored = async (t: Test, what: string) => t.same(await counts(), before, `${what}: no entry and no blob`);

  await t.test('a bad file refuses everything, naming the file', async (t) => {
    const res = await post(
      app,
      tenant.key,
      form(body, [
        { bytes: pdf(), name: 'ok.pdf' },
        { bytes: 'just text', name: 'notes.txt', type: 'text/plain' },
      ]),
    );
    t.same([res.status, res.body.code], [400, 'VALIDATION_FAILED'], res.text);
    t.same(Object.keys(res.body.errors), ['files[1]']);
    await nothingStored(t, 'a bad file');
    const empty = await post(app, tenant.key, form(body, [{ bytes: '', name: 'empty.pdf' }]));
    t.same([empty.status, Object.keys(empty.body.errors ?? {})], [400, ['files[0]']]);
    const six = await post(
      app,
      tenant.key,
      form(
        body,
        Array.from({ length: 6 }, (_, i) => ({ bytes: pdf(), name: `r${i}.pdf` })),
      ),
    );
    t.same([six.status, Object.keys(six.body.errors ?? {})], [400, ['files']], 'more than 5 files');
    await nothingStored(t, 'an empty file, six files');
  });

  await t.test('a bad entry part refuses everything, keyed entry.<field> (with the file problems in the same answer)', async (t) => {
    const bad = { ...body, travelType: 'Sideways', expenses: [{ ...body.expenses[0], amount: 'lots' }], extra: 1 };
    const res = await post(
      app,
      tenant.key,
      form(bad, [
        { bytes: pdf(), name: 'r.pdf' },
        { bytes: 'MZ', name: 'x.exe' },
      ]),
    );
    t.same([res.status, res.body.code], [400, 'VALIDATION_FAILED'], res.text);
    // The same schema as the JSON create: the same errors, keyed under entry.
    const json = await app.request('POST', '/api/v1/travel-entries', { key: tenant.key, body: bad });
    t.equal(json.status, 400);
    const expected = Object.fromEntries(Object.entries(json.body.errors).map(([k, v]) => [`entry.${k}`, v]));
    t.same(res.body.errors, { ...expected, 'files[1]': res.body.errors['files[1]'] });
    t.ok(res.body.errors['entry.expenses[0].amount'] && res.body.errors['entry.extra'] && res.body.errors['entry.travelType']);
    const notJson = await post(app, tenant.key, form('{"employeeId":', [{ bytes: pdf() }]));
    t.same([notJson.status, Object.keys(notJson.body.errors ?? {})], [400, ['entry']]);
    // Read as a JSON body is (session 27): a name given twice, and absurd nesting, keyed under entry.
    const twice = await post(app, tenant.key, form(`${JSON.stringify(body).slice(0, -1)},"purpose":"Other"}`, [{ bytes: pdf() }]));
    t.same([twice.status, Object.keys(twice.body.errors ?? {})], [400, ['entry.purpose']], twice.text);
    const deep = await post(app, tenant.key, form(`{"purpose":${'['.repeat(100_000)}`, [{ bytes: pdf() }]));
    t.same([deep.status, Object.keys(deep.body.errors ?? {})], [400, [`entry.purpose${'[0]'.repeat(31)}`]], deep.text.slice(0, 300));
    const missing = await post(app, tenant.key, form(undefined, [{ bytes: pdf() }]));
    t.same([missing.status, Object.keys(missing.body.errors ?? {})], [400, ['entry']]);
    const noFiles = await post(app, tenant.key, form(body, []));
    t.same([noFiles.status, Object.keys(noFiles.body.errors ?? {})], [400, ['files']]);
    const fd = form(body, [{ bytes: pdf() }]);
    fd.append('comment', 'hello');
    const field = await post(app, tenant.key, fd);
    t.same([field.status, Object.keys(field.body.errors ?? {})], [400, ['comment']]);
    await nothingStored(t, 'bad entry parts');
  });

  await t.test('an entry refused by the decision (an unknown employee) stores no blob', async (t) => {
    const res = await post(
      app,
      tenant.key,
      form({ ...body, employeeId: '00000000-0000-4000-8000-000000000000' }, [{ bytes: pdf(), name: 'r.pdf' }]),
    );
    t.equal(res.status, 400, res.text);
    t.ok(res.body.errors.employeeId);
    await nothingStored(t, 'a refused decision');
  });

  await t.test('Idempotency-Key: the same form replays, other files under the key are 422', async (t) => {
    const file = pdf();
    const first = await post(app, tenant.key, form(body, [{ bytes: file, name: 'r.pdf' }]), { 'idempotency-key': 'mp-1' });
    t.equal(first.status, 201, first.text);
    const again = await post(app, tenant.key, form(body, [{ bytes: file, name: 'r.pdf' }]), { 'idempotency-key': 'mp-1' });
    t.equal(again.status, 201);
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    t.equal(again.body.id, first.body.id);
    const other = await post(app, tenant.key, form(body, [{ bytes: pdf(), name: 'r.pdf' }]), { 'idempotency-key': 'mp-1' });
    t.same([other.status, other.body.code], [422, 'IDEMPOTENCY_KEY_REUSED']);
  });

  await t.test('orphaned bytes (stored, never appended) are swept, listed ones are kept', async (t) => {
    // What a crash between storing the bytes and appending the event leaves: blobs of an entry id with no entry.
    await sql`insert into attachment_blobs (id, tenant_id, entry_id, content_type, size, sha256, bytes, created_at)
      values (gen_random_uuid(), ${tenant.id}::uuid, gen_random_uuid(), 'application/pdf', 3, 'x', ${Buffer.from('abc')}, now() - interval '2 hours')`.execute(
      db,
    );
    const n = await sweepOrphanBlobs(db, app.rt.store, 60);
    t.equal(n, 1, 'the orphan is swept');
    const got = await app.request('GET', `/api/v1/travel-entries/${firstId}`, { key: tenant.key });
    t.equal(got.body.attachments.length, 2, "the created entry's attachments are kept");
  });

  await t.test('one entry.created webhook per create, none for refusals', async (t) => {
    await h.waitForRequests('/mp', 3);
    await new Promise((r) => setTimeout(r, 500));
    const all = h.received('/mp').map((r) => JSON.parse(r.body.toString('utf8')));
    t.same(
      all.map((b: any) => b.type),
      ['entry.created', 'entry.created', 'entry.created'],
      'three creates (two files, entry as file, idempotent once), nothing else',
    );
    t.equal(all.filter((b: any) => b.data.id === firstId).length, 1);
  });

  await t.test('the JSON create is unchanged, and the OpenAPI document shows both bodies', async (t) => {
    const res = await app.request('POST', '/api/v1/travel-entries', { key: tenant.key, body });
    t.equal(res.status, 201);
    t.same(res.body.attachments, []);
    const none = await app.request('POST', '/api/v1/travel-entries', { key: tenant.key });
    t.same([none.status, none.body.code, Object.keys(none.body.errors ?? {})], [400, 'VALIDATION_FAILED', ['body']], 'no body at all');
    const text = await app.request('POST', '/api/v1/travel-entries', {
      key: tenant.key,
      rawBody: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    t.same([text.status, text.body.code], [415, 'UNSUPPORTED_MEDIA_TYPE']);
    const doc = await app.request('GET', '/api-reference/openapi.json', { key: null });
    const content = doc.body.paths['/api/v1/travel-entries'].post.requestBody.content;
    t.same(Object.keys(content).sort(), ['application/json', 'multipart/form-data']);
  });
});
