// The event feed over real HTTP (GET /api/v1/events, /events/{id}): the tenant's catalog events in
// commit order as webhook envelopes, cursors, the type filter, one event by id, tenant isolation,
// bad inputs keyed by field, the scope, and the long poll (woken by a commit; an empty page with the
// same cursor when the wait ends).
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { cursorSeal } from '../../src/infra/cursor-seal.js';
import { startTestApp } from '../helpers/app.js';
import { createEntry, registerEmployee, waitFor } from '../helpers/webhook-harness.js';

const isEnvelopeId = (id: string) => /^evt_[0-9a-f]{32}$/.test(id);

t.test('the event feed', async (t) => {
  const app = await startTestApp(t);
  const { id: tenantId } = app.tenant;
  const employeeId = await registerEmployee(app);
  const entryId = await createEntry(app, tenantId, employeeId);

  const all = await waitFor(async () => {
    const res = await app.request('GET', '/api/v1/events?limit=1000');
    return res.status === 200 && res.body.items.length >= 2 ? res : undefined;
  }, 20_000);

  t.test('a page: envelopes in commit order with a cursor', async (t) => {
    const items = all.body.items as any[];
    t.ok(
      items.every((e) => isEnvelopeId(e.id)),
      'evt_ ids',
    );
    t.same(items[0].type, 'employee.created');
    t.same(items[0].data.id, employeeId);
    t.same(items[1].type, 'entry.created');
    t.same(items[1].data.id, entryId);
    t.ok(items.every((e) => typeof e.data.resourceVersion === 'number' && !Number.isNaN(Date.parse(e.createdAt))));
    t.equal(all.headers.get('content-type'), 'application/json; charset=utf-8');
    t.type(all.body.nextCursor, 'string');
    // The items are spliced in as stored: each is compact JSON, exactly as serialized.
    for (const e of items) t.ok(all.text.includes(JSON.stringify(e)), `${e.id} appears byte for byte`);
  });

  t.test('paging one at a time gives the same events, then an empty page with the same cursor', async (t) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const res = await app.request('GET', `/api/v1/events?limit=1${cursor ? `&after=${cursor}` : ''}`);
      t.equal(res.status, 200);
      if (res.body.items.length === 0) {
        t.equal(res.body.nextCursor, cursor, 'an empty page keeps the cursor');
        break;
      }
      seen.push(res.body.items[0].id);
      cursor = res.body.nextCursor;
    }
    t.same(
      seen,
      all.body.items.map((e: any) => e.id),
    );
  });

  t.test('the type filter', async (t) => {
    const res = await app.request('GET', '/api/v1/events?types=entry.created,employee.updated');
    t.equal(res.status, 200);
    t.same(
      res.body.items.map((e: any) => e.type),
      ['entry.created'],
    );
  });

  t.test('one event, by envelope id or by its GUID; another tenant sees none of it', async (t) => {
    const first = all.body.items[0];
    const byId = await app.request('GET', `/api/v1/events/${first.id}`);
    t.equal(byId.status, 200);
    t.equal(byId.text, JSON.stringify(first), 'the same bytes as in the page');
    const hex = first.id.slice(4);
    const guid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    t.equal((await app.request('GET', `/api/v1/events/${guid.toUpperCase()}`)).text, byId.text);
    // The hex in any case, as a GUID's (a UUID is case-insensitive on input); the prefix as written.
    t.equal((await app.request('GET', `/api/v1/events/evt_${hex.toUpperCase()}`)).text, byId.text);
    t.equal((await app.request('GET', `/api/v1/events/evt_${'0'.repeat(32)}`)).status, 404);

    const other = await app.newTenant();
    const theirs = await app.request('GET', `/api/v1/events/${first.id}`, { key: other.key });
    t.equal(theirs.status, 404);
    t.equal(theirs.body.code, 'NOT_FOUND');
    const page = await app.request('GET', '/api/v1/events', { key: other.key });
    t.same(page.body.items, [], "another tenant's feed is empty");
  });

  t.test('bad inputs are 400 keyed by field', async (t) => {
    const cases: [string, string][] = [
      ['after=nonsense!', 'after'],
      [`after=${Buffer.from('f1.1').toString('base64url')}`, 'after'],
      ['after=', 'after'],
      ['types=entry.approved,entry.deleted', 'types'],
      ['types=', 'types'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['wait=31', 'wait'],
      ['wait=-1', 'wait'],
      ['cursor=x', 'cursor'],
    ];
    for (const [query, field] of cases) {
      const res = await app.request('GET', `/api/v1/events?${query}`);
      t.equal(res.status, 400, query);
      t.ok(res.body.errors?.[field], `${query}: errors.${field}`);
    }
    t.equal((await app.request('GET', '/api/v1/events/evt_123')).status, 400);
  });

  t.test('feed cursors are sealed; a plain one issued before is still read (found from outside, session 25)', async (t) => {
    // The plain `f1.<commit>.<prepare>` let a tenant count every tenant's commits between two pages.
    const page = (await app.request('GET', '/api/v1/events?limit=1')).body;
    const cursor = page.nextCursor as string;
    t.notMatch(Buffer.from(cursor, 'base64url').toString('latin1'), /f1\./, 'no position can be read');
    const seal = app.rt.app!.deps.cursors;
    const plain = Buffer.from(seal.open(cursor, app.tenant.id)!, 'utf8').toString('base64url');
    t.match(plain, /^ZjEu/);
    const sealedNext = await app.request('GET', `/api/v1/events?after=${cursor}`);
    const plainNext = await app.request('GET', `/api/v1/events?after=${plain}`);
    t.same(plainNext.body, sealedNext.body, 'the same page, and the next cursor sealed');
    const foreign = cursorSeal(randomBytes(32)).seal(seal.open(cursor, app.tenant.id)!, app.tenant.id);
    t.equal((await app.request('GET', `/api/v1/events?after=${foreign}`)).status, 400, 'a cursor of another deployment');
    // A plain cursor is read only where it names the start or one of the tenant's own events, all
    // an issued one ever named: a made-up position would let a tenant search the log (a review).
    const plainOf = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    t.equal((await app.request('GET', `/api/v1/events?after=${plainOf('f1.0.0')}`)).status, 200, 'the start, plain');
    const [, commit, prepare] = /^f1\.(\d+)\.(\d+)$/.exec(seal.open(cursor, app.tenant.id)!)!;
    for (const made of [
      `f1.${commit}.${BigInt(prepare!) + 1n}`,
      `f1.${BigInt(commit!) + 1000n}.${prepare}`,
      'f1.99999999999.99999999999',
    ]) {
      const r = await app.request('GET', `/api/v1/events?after=${plainOf(made)}`);
      t.same([r.status, Object.keys(r.body.errors ?? {})], [400, ['after']], `${made}: not one this feed issued`);
    }
    const other = await app.newTenant();
    t.equal((await app.request('GET', `/api/v1/events?after=${plain}`, { key: other.key })).status, 400, "another tenant's event");
    // Sealed, too (a review, session 26: it answered 200 and skipped the other tenant's events before it).
    const theirs = await app.request('GET', `/api/v1/events?after=${cursor}`, { key: other.key });
    t.same([theirs.status, Object.keys(theirs.body.errors ?? {})], [400, ['after']], "another tenant's sealed cursor");
    // Sealed as session 25 sealed it (no tenant): a partner's stored cursor still reads, for its tenant only.
    const before = seal.seal(seal.open(cursor, app.tenant.id)!, '');
    t.same((await app.request('GET', `/api/v1/events?after=${before}`)).body, sealedNext.body, 'a cursor sealed before session 26');
    t.equal((await app.request('GET', `/api/v1/events?after=${before}`, { key: other.key })).status, 400, '…not for another tenant');
  });

  t.test('a cursor past the end of the log is a 400 on after, also with wait (found from outside, session 24)', async (t) => {
    // As a cursor kept across a restore would be: one this deployment sealed.
    const past = app.rt.app!.deps.cursors.seal('f1.99999999999.99999999999', app.tenant.id);
    for (const query of [`after=${past}`, `after=${past}&wait=5`]) {
      const started = Date.now();
      const res = await app.request('GET', `/api/v1/events?${query}`);
      t.match([res.status, res.body.errors?.after], [400, [/Past the end of the feed/]], query);
      t.ok(Date.now() - started < 4000, `${query}: answered at once, not after the wait`);
    }
    const end = (await app.request('GET', '/api/v1/events?limit=1000')).body.nextCursor;
    t.same((await app.request('GET', `/api/v1/events?after=${end}`)).body.items, [], 'the real end: an empty page');
    const fresh = await app.newTenant();
    const start = (await app.request('GET', '/api/v1/events', { key: fresh.key })).body.nextCursor;
    t.equal(
      (await app.request('GET', `/api/v1/events?after=${start}`, { key: fresh.key })).status,
      200,
      'the start cursor of an empty feed',
    );
  });

  t.test('scope: read', async (t) => {
    const writeOnly = await app.newTenant({ scopes: ['write'] });
    const res = await app.request('GET', '/api/v1/events', { key: writeOnly.key });
    t.equal(res.status, 403);
    t.equal(res.body.code, 'INSUFFICIENT_SCOPE');
    const readOnly = await app.newTenant({ scopes: ['read'] });
    t.equal((await app.request('GET', '/api/v1/events', { key: readOnly.key })).status, 200);
  });

  t.test('long poll: answers as soon as an event arrives', async (t) => {
    const cursor = (await app.request('GET', '/api/v1/events?limit=1000')).body.nextCursor;
    const started = Date.now();
    const polling = app.request('GET', `/api/v1/events?after=${cursor}&wait=20`);
    await new Promise((r) => setTimeout(r, 300));
    const newcomer = await registerEmployee(app, { firstName: 'Iva' });
    const res = await polling;
    const took = Date.now() - started;
    t.equal(res.status, 200);
    t.same(
      res.body.items.map((e: any) => [e.type, e.data.id]),
      [['employee.created', newcomer]],
    );
    t.ok(took < 10_000, `woken well before the wait ended (${took} ms)`);
  });

  t.test("long poll: another tenant's event does not end it; the wait ends with an empty page and the same cursor", async (t) => {
    const other = await app.newTenant();
    const cursor = (await app.request('GET', '/api/v1/events', { key: other.key })).body.nextCursor;
    const started = Date.now();
    const polling = app.request('GET', `/api/v1/events?after=${cursor}&wait=1`, { key: other.key });
    await registerEmployee(app, { firstName: 'Maja' });
    const res = await polling;
    t.equal(res.status, 200);
    t.same(res.body, { items: [], nextCursor: cursor });
    t.ok(Date.now() - started >= 950, 'waited the whole second');
  });

  t.test('long poll without a cursor on an empty feed, then the first event', async (t) => {
    const fresh = await app.newTenant();
    const empty = await app.request('GET', '/api/v1/events', { key: fresh.key });
    t.same(empty.body.items, []);
    const polling = app.request('GET', `/api/v1/events?after=${empty.body.nextCursor}&wait=20`, { key: fresh.key });
    await new Promise((r) => setTimeout(r, 200));
    const id = await registerEmployee(app, { firstName: 'Lea' }, fresh.key);
    const res = await polling;
    t.same(
      res.body.items.map((e: any) => e.data.id),
      [id],
    );
  });
});
