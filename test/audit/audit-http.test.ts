// The auditor surface over real HTTP: an entry's and an employee's history (pages, cursor, actor
// with the key's name, every link valid), the state as of a revision or an instant (same presenter
// as the current read, revision headers, immutable only when pinned, 404 before the first event),
// the audit scope on all of it, and a stored event edited in the database: the verification
// endpoint, the `audit verify` CLI operation and the history all name the broken link.
import t from 'tap';
import { sql } from 'kysely';
import { operations } from '../../src/admin/operations.js';
import { GENESIS_HASH } from '../../src/application/audit/event-hash.js';
import { createApiKey } from '../../src/tenancy/api-keys.js';
import { startTestApp } from '../helpers/app.js';

const entryBody = (purpose: string, employeeId: string) => ({
  employeeId,
  departureDate: '2026-02-02',
  returnDate: '2026-02-03',
  travelType: 'Domestic',
  currencyCode: 'EUR',
  purpose,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('auditor surface', async (t) => {
  const app = await startTestApp(t);
  const { tenant } = app;
  const db = app.rt.handle.db;
  const other = await app.newTenant();
  const reader = await createApiKey(db, { tenantId: tenant.id, scopes: ['read'], name: 'reader' });
  const keyName = (await sql<{ name: string }>`select name from api_keys where id = ${tenant.apiKeyId}::uuid`.execute(db)).rows[0]!.name;

  const emp = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Dora', lastName: 'Test' } });
  t.equal(emp.status, 201, emp.text);
  const employeeId = emp.body.id as string;
  const renamed = await app.request('PUT', `/api/v1/employees/${employeeId}`, { body: { firstName: 'Dorotea', lastName: 'Test' } });
  t.equal(renamed.status, 200, renamed.text);

  const created = await app.request('POST', '/api/v1/travel-entries', { body: entryBody('v0', employeeId) });
  t.equal(created.status, 201, created.text);
  const id = created.body.id as string;
  const path = `/api/v1/travel-entries/${id}`;
  // A second entry: its number reservation appends to the tenant-year sequence with `known`.
  t.equal((await app.request('POST', '/api/v1/travel-entries', { body: entryBody('other', employeeId) })).status, 201);
  for (const purpose of ['v1', 'v2', 'v3']) {
    await sleep(20); // distinct recorded times for the asOf checks
    const res = await app.request('PUT', path, { body: entryBody(purpose, employeeId) });
    t.equal(res.status, 200, res.text);
  }

  let history: any[] = [];
  await t.test('history: every event in order, actor with the key name, each link valid', async (t) => {
    const res = await app.request('GET', `${path}/history`);
    t.equal(res.status, 200, res.text);
    t.match(res.body, { page: 1, pageSize: 50, total: 4, nextCursor: null });
    history = res.body.items;
    t.same(
      history.map((i) => i.revision),
      [0, 1, 2, 3],
    );
    t.equal(history[0].type, 'TravelEntryCreated');
    t.equal(history[0].previousHash, GENESIS_HASH);
    for (let i = 1; i < 4; i++) t.equal(history[i].previousHash, history[i - 1].hash, `link ${i}`);
    for (const item of history) {
      t.match(item, {
        hashValid: true,
        hashStatus: 'valid',
        hash: /^[0-9a-f]{64}$/,
        actor: { apiKeyId: tenant.apiKeyId, apiKeyName: keyName, employeeId: null, system: null },
        correlationId: String,
        causationId: String,
        occurredAt: String,
        recordedAt: String,
        data: Object,
      });
    }
  });

  await t.test('history pages: page/pageSize and the cursor agree', async (t) => {
    const first = await app.request('GET', `${path}/history?pageSize=3`);
    t.same(
      first.body.items.map((i: any) => i.revision),
      [0, 1, 2],
    );
    t.type(first.body.nextCursor, 'string');
    const next = await app.request('GET', `${path}/history?pageSize=3&cursor=${first.body.nextCursor}`);
    t.same(next.body.items, [history[3]], 'the cursor page checks its first link against the event before it');
    t.equal(next.body.nextCursor, null);
    const page2 = await app.request('GET', `${path}/history?pageSize=3&page=2`);
    t.same(page2.body.items, next.body.items);
    const bad = await app.request('GET', `${path}/history?cursor=bm9wZQ`);
    t.match([bad.status, bad.body.errors], [400, { cursor: [String] }]);
    const both = await app.request('GET', `${path}/history?cursor=${first.body.nextCursor}&page=2`);
    t.match([both.status, both.body.errors], [400, { cursor: [String] }]);
  });

  await t.test('history: audit scope, tenant isolation', async (t) => {
    const denied = await app.request('GET', `${path}/history`, { key: reader.key });
    t.match([denied.status, denied.body], [403, { code: 'INSUFFICIENT_SCOPE', requiredScope: 'audit' }]);
    t.equal((await app.request('GET', `${path}/history`, { key: other.key })).status, 404);
    t.equal((await app.request('GET', `/api/v1/employees/${employeeId}/history`, { key: other.key })).status, 404);
    const emp = await app.request('GET', `/api/v1/employees/${employeeId}/history`);
    t.equal(emp.status, 200, emp.text);
    t.same(
      emp.body.items.map((i: any) => [i.revision, i.type, i.hashValid]),
      [
        [0, 'EmployeeRegistered', true],
        [1, 'EmployeeUpdated', true],
      ],
    );
  });

  await t.test('state as of a revision: immutable, same presenter as the current read', async (t) => {
    const current = await app.request('GET', path);
    t.equal(current.headers.get('etag'), '"3"');
    const pinned = await app.request('GET', `${path}?revision=3`);
    t.equal(pinned.status, 200, pinned.text);
    t.same(pinned.body, current.body, 'the fold answers what the read model holds');
    const r1 = await app.request('GET', `${path}?revision=1`);
    t.equal(r1.body.purpose, 'v1');
    t.equal(r1.headers.get('etag'), '"1"');
    t.equal(r1.headers.get('resource-revision'), '1');
    t.equal(r1.headers.get('cache-control'), 'private, max-age=31536000, immutable');
    const e0 = await app.request('GET', `/api/v1/employees/${employeeId}?revision=0`);
    t.match([e0.status, e0.body.firstName, e0.headers.get('resource-revision')], [200, 'Dora', '0']);
    t.equal((await app.request('GET', `/api/v1/employees/${employeeId}`)).body.firstName, 'Dorotea');
    t.equal((await app.request('GET', `${path}?revision=4`)).status, 404, 'past the last revision');
  });

  await t.test('a pinned answer never changes: the names of its references as they were then', async (t) => {
    // Found from outside (session 14): a renamed cost center changed an answer served as immutable.
    const cc = await app.request('POST', '/api/v1/cost-centers', { body: { code: 'AUD-1', name: 'Audit before' } });
    t.equal(cc.status, 201, cc.text);
    const withCc = await app.request('POST', '/api/v1/travel-entries', {
      body: { ...entryBody('names', employeeId), costCenterAllocations: [{ costCenterId: cc.body.id, share: 100 }] },
    });
    t.equal(withCc.status, 201, withCc.text);
    const pinnedPath = `/api/v1/travel-entries/${withCc.body.id}?revision=0`;
    const before = await app.request('GET', pinnedPath);
    t.equal(before.status, 200, before.text);
    t.match(before.body.costCenterAllocations, [{ costCenterCode: 'AUD-1', costCenterName: 'Audit before' }]);
    t.same(before.body, (await app.request('GET', `/api/v1/travel-entries/${withCc.body.id}`)).body, 'the current revision as the read');
    await sleep(20);
    const renamed = await app.request('PUT', `/api/v1/cost-centers/${cc.body.id}`, { body: { code: 'AUD-2', name: 'Audit after' } });
    t.equal(renamed.status, 200, renamed.text);
    const after = await app.request('GET', pinnedPath);
    t.equal(after.headers.get('cache-control'), 'private, max-age=31536000, immutable');
    t.equal(after.text, before.text, 'byte for byte the same answer');
    const current = await app.request('GET', `/api/v1/travel-entries/${withCc.body.id}`);
    t.match(
      current.body.costCenterAllocations,
      [{ costCenterCode: 'AUD-2', costCenterName: 'Audit after' }],
      'the current read: today’s names',
    );
    const now = await app.request('GET', `/api/v1/travel-entries/${withCc.body.id}?asOf=${encodeURIComponent(new Date().toISOString())}`);
    t.match(now.body.costCenterAllocations, [{ costCenterName: 'Audit after' }], 'as of now: the names now');
  });

  await t.test('state as of an instant: the last event recorded at or before it, not immutable', async (t) => {
    const at2 = await app.request('GET', `${path}?asOf=${encodeURIComponent(history[2].recordedAt)}`);
    t.match([at2.status, at2.body.purpose, at2.headers.get('resource-revision')], [200, 'v2', '2']);
    // When the revision was recorded, which asOf compares (the ERP try, session 25: an asOf set to
    // an editedAt answered the revision before, with nothing saying why).
    t.equal(at2.headers.get('resource-recorded-at'), history[2].recordedAt, 'the answer names when its revision was recorded');
    const r1 = await app.request('GET', `${path}?revision=1`);
    t.equal(r1.headers.get('resource-recorded-at'), history[1].recordedAt, 'a pinned answer too');
    t.notMatch(at2.headers.get('cache-control') ?? '', /immutable/);
    const before = new Date(Date.parse(history[0].recordedAt) - 1).toISOString();
    const none = await app.request('GET', `${path}?asOf=${before}`);
    t.match([none.status, none.body.code], [404, 'NOT_FOUND'], 'before the first event');
  });

  await t.test('as-of refusals: both parameters, no audit scope, another tenant', async (t) => {
    const both = await app.request('GET', `${path}?revision=1&asOf=2026-01-01T00:00:00Z`);
    t.match([both.status, both.body.code, both.body.errors], [400, 'VALIDATION_FAILED', { asOf: [String], revision: [String] }]);
    const reading = await app.request('GET', `${path}?revision=1`, { key: reader.key });
    t.match([reading.status, reading.body], [403, { code: 'INSUFFICIENT_SCOPE', requiredScope: 'audit' }]);
    t.equal((await app.request('GET', path, { key: reader.key })).status, 200, 'the current state needs only read');
    t.equal((await app.request('GET', `${path}?revision=1`, { key: other.key })).status, 404);
    const bad = await app.request('GET', `${path}?asOf=yesterday`);
    t.match([bad.status, bad.body.errors], [400, { asOf: [String] }]);
    // RFC 3339, but outside the years held: the message names the range (found from outside, session 24).
    const early = await app.request('GET', `${path}?asOf=0001-01-01T00:00:00Z`);
    t.match([early.status, early.body.errors], [400, { asOf: [/years 0100 to 9999/] }]);
  });

  const verifyOp = (args: Record<string, string>) =>
    operations['audit verify']!({ db, store: app.rt.store, runner: app.rt.runner }, args, () => undefined) as Promise<any>;

  await t.test('verification: every chain of the tenant is valid', async (t) => {
    const res = await app.request('GET', `/api/v1/audit/verify?streamId=travelEntry-${id}`);
    t.equal(res.status, 200, res.text);
    t.match(res.body, {
      status: 'valid',
      events: 4,
      hashed: 4,
      unhashed: 0,
      headRevision: 3,
      headHash: history[3].hash,
      firstBrokenLink: null,
    });
    t.match(await verifyOp({ tenant: tenant.id }), { ok: true, broken: 0, unhashed: 0, brokenLinks: [] }, 'entry numbers (known) included');
    await t.rejects(
      verifyOp({ tenant: '00000000-0000-4000-8000-000000000000' }),
      { code: 'NOT_FOUND' },
      'an unknown tenant is not found, never a clean report of nothing (found from outside, session 24)',
    );
    const upper = await app.request('GET', `/api/v1/audit/verify?streamId=travelEntry-${id.toUpperCase()}`);
    t.same([upper.status, upper.body.status, upper.body.events], [200, 'valid', 4], `the id in any case: ${upper.text}`);
    t.equal((await app.request('GET', `/api/v1/audit/verify?streamId=travelEntry-${id}`, { key: other.key })).status, 404);
    const denied = await app.request('GET', `/api/v1/audit/verify?streamId=travelEntry-${id}`, { key: reader.key });
    t.match([denied.status, denied.body.requiredScope], [403, 'audit']);
  });

  await t.test('an event edited in the database is named by the endpoint, the CLI operation and the history', async (t) => {
    const streamId = `travelEntry-${id}`;
    await sql`update es_events set data = data || '{"purpose":"tampered"}'::jsonb where stream_id = ${streamId} and revision = 2`.execute(
      db,
    );
    const res = await app.request('GET', `/api/v1/audit/verify?streamId=${streamId}`);
    t.equal(res.status, 200, res.text);
    t.match(res.body, {
      status: 'broken',
      firstBrokenLink: { streamId, revision: 2, field: 'hash', expected: /^[0-9a-f]{64}$/, found: history[2].hash },
    });
    t.not(res.body.firstBrokenLink.expected, history[2].hash);
    const one = await verifyOp({ tenant: tenant.id, stream: streamId });
    t.match(one, { ok: false, status: 'broken', firstBrokenLink: { streamId, revision: 2, found: history[2].hash } });
    const all = await verifyOp({ tenant: tenant.id });
    t.match(all, { ok: false, broken: 1, brokenLinks: [{ streamId, revision: 2, field: 'hash' }] });
    const h = await app.request('GET', `${path}/history`);
    t.same(
      h.body.items.map((i: any) => i.hashStatus),
      ['valid', 'valid', 'broken', 'valid'],
      'only the edited event fails; the next link still matches its stored hash',
    );
    t.equal(h.body.items[2].hashValid, false);
    await t.rejects(verifyOp({ stream: 'travelEntry-nope', tenant: other.id }), { code: 'NOT_FOUND' });
  });
});
