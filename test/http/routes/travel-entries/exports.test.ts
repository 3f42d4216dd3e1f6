// Export write-back over real HTTP, with a real webhook receiver: an ERP records posted or failed
// per system on an approved (locked) entry; the entry shows exports in GET and list and keeps its
// editedAt; the list filters exportedTo/exportStatus ("approved and not yet posted to me");
// updatedSince sees the write-back; If-Match and Idempotency-Key as on every entry command; every
// bad field is a 400 keyed by it; another tenant gets 404; the webhook is entry.updated.
import t from 'tap';
import { startWebhookHarness } from '../../../helpers/webhook-harness.js';
import type { TestApp } from '../../../helpers/app.js';

async function approvedEntry(app: TestApp, key: string, employeeId: string): Promise<any> {
  const res = await app.request('POST', '/api/v1/travel-entries', {
    key,
    body: { employeeId, departureDate: '2026-02-02', returnDate: '2026-02-03', travelType: 'Domestic', currencyCode: 'EUR' },
  });
  if (res.status !== 201) throw new Error(res.text);
  const submitted = await app.request('POST', `/api/v1/travel-entries/${res.body.id}/submit`, { key });
  if (submitted.status !== 200 || submitted.body.status !== 'Approved') throw new Error(submitted.text);
  return submitted.body;
}

t.test('export write-back', async (t) => {
  const h = await startWebhookHarness(t);
  const { app } = h;
  const tenant = await app.newTenant();
  const other = await app.newTenant();
  await h.subscribe(['entry.updated'], { path: '/entries', key: tenant.key });
  const emp = (await app.request('POST', '/api/v1/employees', { key: tenant.key, body: { firstName: 'Ivo', lastName: 'Test' } })).body.id;
  const posted = await approvedEntry(app, tenant.key, emp);
  const failed = await approvedEntry(app, tenant.key, emp);
  const untouched = await approvedEntry(app, tenant.key, emp);
  const exportsOf = (id: string) => `/api/v1/travel-entries/${id}/exports`;
  const since = new Date().toISOString();

  await t.test('posted on a locked entry: recorded, shown, editedAt kept', async (t) => {
    t.equal(posted.locked, true);
    const res = await app.request('POST', exportsOf(posted.id), {
      key: tenant.key,
      headers: { 'if-match': `"${2}"`, 'idempotency-key': 'exp-1' },
      body: { system: 'sap-fi', status: 'posted', externalId: '5100004711', externalUrl: 'https://erp.example.com/doc/5100004711' },
    });
    t.equal(res.status, 200, res.text);
    t.equal(res.body.editedAt, posted.editedAt, 'no content changed');
    t.equal(res.headers.get('etag'), '"3"');
    t.match(res.body.exports, [
      {
        system: 'sap-fi',
        status: 'posted',
        externalId: '5100004711',
        externalUrl: 'https://erp.example.com/doc/5100004711',
        failureReason: null,
      },
    ]);
    const replay = await app.request('POST', exportsOf(posted.id), {
      key: tenant.key,
      headers: { 'idempotency-key': 'exp-1' },
      body: { system: 'sap-fi', status: 'posted', externalId: '5100004711', externalUrl: 'https://erp.example.com/doc/5100004711' },
    });
    t.same([replay.status, replay.headers.get('etag')], [200, '"3"'], 'the same key answers the first result');
    const read = await app.request('GET', `/api/v1/travel-entries/${posted.id}`, { key: tenant.key });
    t.same(read.body.exports, res.body.exports);
    const stale = await app.request('POST', exportsOf(posted.id), {
      key: tenant.key,
      headers: { 'if-match': '"2"' },
      body: { system: 'datev', status: 'posted' },
    });
    t.same([stale.status, stale.body.code], [412, 'PRECONDITION_FAILED']);
  });

  await t.test('failed with a reason; the last report per system wins', async (t) => {
    const first = await app.request('POST', exportsOf(failed.id), {
      key: tenant.key,
      body: { system: 'sap-fi', status: 'failed', failureReason: 'Cost center 4711 is blocked for posting.' },
    });
    t.equal(first.status, 200, first.text);
    const datev = await app.request('POST', exportsOf(failed.id), { key: tenant.key, body: { system: 'datev', status: 'posted' } });
    t.same(
      datev.body.exports.map((x: any) => [x.system, x.status, x.failureReason]),
      [
        ['datev', 'posted', null],
        ['sap-fi', 'failed', 'Cost center 4711 is blocked for posting.'],
      ],
    );
  });

  await t.test('the list filters on the export status of one system', async (t) => {
    const ids = async (query: string) => {
      const res = await app.request('GET', `/api/v1/travel-entries?status=Approved&${query}`, { key: tenant.key });
      t.equal(res.status, 200, res.text);
      return res.body.items.map((x: any) => x.id).sort();
    };
    t.same(await ids('exportedTo=sap-fi&exportStatus=notExported'), [untouched.id]);
    t.same(await ids('exportedTo=sap-fi&exportStatus=posted'), [posted.id]);
    t.same(await ids('exportedTo=sap-fi&exportStatus=failed'), [failed.id]);
    t.same(await ids('exportedTo=sap-fi'), [posted.id, failed.id].sort());
    t.same(await ids('exportedTo=datev&exportStatus=notExported'), [posted.id, untouched.id].sort());
    const listed = await app.request('GET', `/api/v1/travel-entries?exportedTo=sap-fi&exportStatus=posted`, { key: tenant.key });
    t.same(listed.body.items[0].exports[0].externalId, '5100004711', 'the list shows exports too');
    const synced = await app.request('GET', `/api/v1/travel-entries?updatedSince=${encodeURIComponent(since)}`, { key: tenant.key });
    t.same(
      synced.body.items.map((x: any) => x.id).sort(),
      [posted.id, failed.id].sort(),
      'an incremental sync sees the write-backs (and not the entry without one)',
    );
    const needs = await app.request('GET', `/api/v1/travel-entries?exportStatus=posted`, { key: tenant.key });
    t.same([needs.status, Object.keys(needs.body.errors ?? {})], [400, ['exportStatus']]);
    const badSystem = await app.request('GET', `/api/v1/travel-entries?exportedTo=SAP%20FI`, { key: tenant.key });
    t.equal(badSystem.status, 400);
  });

  await t.test('bad input: 400 keyed by field; another tenant: 404', async (t) => {
    for (const [body, field] of [
      [{ status: 'posted' }, 'system'],
      [{ system: 'Not A Slug', status: 'posted' }, 'system'],
      [{ system: 'x'.repeat(41), status: 'posted' }, 'system'],
      [{ system: 'sap-fi', status: 'booked' }, 'status'],
      [{ system: 'sap-fi' }, 'status'],
      [{ system: 'sap-fi', status: 'posted', externalUrl: 'http://erp.example.com/x' }, 'externalUrl'],
      [{ system: 'sap-fi', status: 'posted', externalUrl: 'not a url' }, 'externalUrl'],
      [{ system: 'sap-fi', status: 'posted', failureReason: 'only with failed' }, 'failureReason'],
      [{ system: 'sap-fi', status: 'posted', externalId: 'x'.repeat(201) }, 'externalId'],
      [{ system: 'sap-fi', status: 'posted', externalId: 'a\u0007b' }, 'externalId'],
      [{ system: 'sap-fi', status: 'posted', extra: 1 }, 'extra'],
    ] as const) {
      const res = await app.request('POST', exportsOf(untouched.id), { key: tenant.key, body });
      t.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      t.ok(
        Object.keys(res.body.errors ?? {}).some((k) => k === field || k.endsWith(`.${field}`) || k.endsWith(`/${field}`)),
        `${JSON.stringify(body)} is keyed ${field}: ${JSON.stringify(res.body.errors)}`,
      );
    }
    const res = await app.request('POST', exportsOf(posted.id), { key: other.key, body: { system: 'sap-fi', status: 'posted' } });
    t.same([res.status, res.body.code], [404, 'NOT_FOUND']);
  });

  await t.test('webhooks: one entry.updated per write-back', async (t) => {
    // Submit and auto-approval of three entries (two each), then three write-backs (the replayed key records nothing).
    await h.waitForRequests('/entries', 9);
    await new Promise((r) => setTimeout(r, 500));
    const all = h.received('/entries').map((r) => JSON.parse(r.body.toString('utf8')));
    const versionsOf = (id: string) =>
      all
        .filter((b: any) => b.data.id === id)
        .map((b: any) => [b.type, b.data.resourceVersion])
        .sort((a: any, b: any) => a[1] - b[1]);
    t.same(versionsOf(posted.id), [
      ['entry.updated', 1],
      ['entry.updated', 2],
      ['entry.updated', 3],
    ]);
    t.same(versionsOf(failed.id).length, 4);
    const writeBack = all.find((b: any) => b.data.id === posted.id && b.data.resourceVersion === 3);
    t.equal(writeBack.data.editedAt, posted.editedAt, 'the summary is unchanged but for the version');
  });
});
