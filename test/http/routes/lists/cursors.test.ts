// Cursors on every list (issue 11) over real HTTP: walking each list with cursors gives exactly the
// rows of the numbered pages; a cursor with page, a forged cursor or a cursor used with other
// filters is a 400 keyed cursor; and an incremental sync (updatedSince) paged with cursors while
// entries are edited misses no entry and repeats none without a newer edit.
import t from 'tap';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { cursorSeal } from '../../../../src/infra/cursor-seal.js';
import { startTestApp, type TestApp } from '../../../helpers/app.js';
import { domesticTrip } from '../../../helpers/domestic-trip.js';

const trip = (employeeId: string, purpose: string) => domesticTrip(employeeId, { purpose });

async function walk(app: TestApp, path: string, pageSize: number): Promise<{ items: any[]; pages: any[] }> {
  const items: any[] = [];
  const pages: any[] = [];
  const sep = path.includes('?') ? '&' : '?';
  let cursor: string | null | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const url = `${path}${sep}pageSize=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const r = await app.request('GET', url);
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${r.text}`);
    pages.push(r.body);
    items.push(...r.body.items);
    cursor = r.body.nextCursor;
    if (cursor === null) break;
  }
  return { items, pages };
}

t.test('cursors on every list', async (t) => {
  const app = await startTestApp(t);
  const ana = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Horvat' } })).body.id as string;
  for (let i = 0; i < 4; i++) {
    await app.request('POST', '/api/v1/employees', { body: { firstName: `E${i}`, lastName: 'Test' } });
    await app.request('POST', '/api/v1/cost-centers', { body: { code: `CC-${i}`, name: `Center ${i}` } });
    await app.request('POST', '/api/v1/departments', { body: { name: `Dept ${i}` } });
    await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: `ZG-100${i}-AB`, ownership: 'Company' } });
    const entry = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, `Trip ${i}`) });
    t.equal(entry.status, 201);
    await app.request('POST', `/api/v1/travel-entries/${entry.body.id}/submit`);
  }

  for (const path of [
    '/api/v1/employees',
    '/api/v1/employees?updatedSince=2000-01-01T00:00:00Z',
    '/api/v1/cost-centers',
    '/api/v1/departments?updatedSince=2000-01-01T00:00:00Z',
    '/api/v1/vehicles',
    '/api/v1/travel-entries',
    '/api/v1/travel-entries?updatedSince=2000-01-01T00:00:00Z',
    '/api/v1/payouts/ready',
    '/api/v1/payouts/batches',
    '/api/v1/payouts/batches?updatedSince=2000-01-01T00:00:00Z',
    '/api/v1/webhooks',
  ]) {
    const all = await app.request('GET', `${path}${path.includes('?') ? '&' : '?'}pageSize=200`);
    t.equal(all.status, 200, path);
    t.equal(all.body.nextCursor, null, `${path}: one page holds everything, so no next cursor`);
    const { items, pages } = await walk(app, path, 3);
    t.same(
      items.map((x: { id: string }) => x.id),
      all.body.items.map((x: { id: string }) => x.id),
      `${path}: walking with cursors gives the rows of the numbered pages, in order`,
    );
    if (pages.length > 1) {
      t.notOk('total' in pages[1] || 'page' in pages[1], `${path}: a cursor page has no count and no page number`);
    }
  }

  t.test('cursor mistakes are 400 keyed cursor', async (t) => {
    /** The cursor with its key replaced (its list and filters' fingerprint kept), sealed as the server seals. */
    const seal = app.rt.app!.deps.cursors;
    const withKey = (c: string, k: string[]): string =>
      seal.seal(JSON.stringify({ ...JSON.parse(seal.open(c, app.tenant.id)!), k }), app.tenant.id);
    const first = await app.request('GET', '/api/v1/cost-centers?pageSize=1');
    const cursor = first.body.nextCursor as string;
    t.type(cursor, 'string');
    for (const [what, url] of [
      ['with page', `/api/v1/cost-centers?cursor=${cursor}&page=2`],
      ['forged', '/api/v1/cost-centers?cursor=bm90LWEtY3Vyc29y'],
      ['garbage', '/api/v1/cost-centers?cursor=%%%'],
      ['other filters', `/api/v1/cost-centers?cursor=${cursor}&includeArchived=true`],
      ['another list', `/api/v1/vehicles?cursor=${cursor}`],
      ['a tampered key', `/api/v1/cost-centers?cursor=${withKey(cursor, ['yesterday', 'x'])}`],
      // Keys of the right shape that PostgreSQL would refuse (22008): out of the calendar or the clock.
      ...[
        '2026-13-45 10:00:00+00',
        '2026-02-30 10:00:00+00',
        '2026-02-28 24:00:00+00',
        '2026-02-28 10:60:00+00',
        '2026-02-28 10:00:00+16',
        '0000-01-01 10:00:00+00',
      ].map(
        (at) => [`a key at ${at}`, `/api/v1/cost-centers?cursor=${withKey(cursor, [at, '68eff424-83ec-4bfc-ab3c-00056f22883e'])}`] as const,
      ),
    ] as const) {
      const r = await app.request('GET', url);
      t.same([r.status, Object.keys(r.body.errors ?? {})], [400, ['cursor']], `${what}: ${r.text}`);
    }
    // Keys in every form PostgreSQL writes a timestamptz are still taken: other offsets, fractions,
    // and an offset with seconds (local mean time before 1900).
    for (const at of ['2000-01-01 10:00:00-05:30', '2000-01-01 10:00:00.123456+00', '1890-01-01 10:00:00+00:19:32']) {
      const r = await app.request('GET', `/api/v1/cost-centers?cursor=${withKey(cursor, [at, '68eff424-83ec-4bfc-ab3c-00056f22883e'])}`);
      t.equal(r.status, 200, `a key at ${at}: ${r.text.slice(0, 200)}`);
    }
    const ok = await app.request('GET', `/api/v1/cost-centers?cursor=${cursor}&pageSize=2`);
    t.equal(ok.status, 200, 'pageSize may change between pages');
  });

  t.test('cursors are sealed: no store position shows, and only this deployment opens them', async (t) => {
    // The fuzzing try (session 25): an incremental sync's cursor held the write sequence every
    // tenant shares, in plain base64url JSON, so a tenant could count other tenants' writes.
    const path = '/api/v1/cost-centers?updatedSince=2000-01-01T00:00:00Z&pageSize=1';
    const first = await app.request('GET', path);
    const cursor = first.body.nextCursor as string;
    t.notMatch(Buffer.from(cursor, 'base64url').toString('latin1'), /"k"|"f"/, 'nothing of the key can be read');
    t.equal((await app.request('GET', path)).body.nextCursor, cursor, 'the same position gives the same cursor');
    const next = await app.request('GET', `${path}&cursor=${cursor}`);
    t.equal(next.status, 200);
    const seal = app.rt.app!.deps.cursors;
    const plain = Buffer.from(seal.open(cursor, app.tenant.id)!, 'utf8').toString('base64url');
    const unsealed = await app.request('GET', `${path}&cursor=${plain}`);
    t.same([unsealed.status, Object.keys(unsealed.body.errors ?? {})], [400, ['cursor']], 'a plain cursor, as issued before, is refused');
    const flipped = cursor.slice(0, 20) + (cursor[20] === 'A' ? 'B' : 'A') + cursor.slice(21);
    const foreign = cursorSeal(randomBytes(32)).seal(seal.open(cursor, app.tenant.id)!, app.tenant.id);
    for (const [what, c] of [
      ['altered', flipped],
      ['sealed by another deployment', foreign],
    ]) {
      const r = await app.request('GET', `${path}&cursor=${c}`);
      t.same([r.status, Object.keys(r.body.errors ?? {})], [400, ['cursor']], `${what}: ${r.text}`);
    }
  });

  t.test("another company's cursor is a 400 keyed cursor, not a page that skips its rows", async (t) => {
    // A review (session 26): tenant A's cursor sent with tenant B's key answered 200 with an empty
    // page, so an integrator serving several companies who mixed up stored cursors lost B's rows.
    const path = '/api/v1/cost-centers?updatedSince=2000-01-01T00:00:00Z&pageSize=1';
    const cursor = (await app.request('GET', path)).body.nextCursor as string;
    t.type(cursor, 'string');
    const other = await app.newTenant();
    const r = await app.request('GET', `${path}&cursor=${cursor}`, { key: other.key });
    t.same([r.status, Object.keys(r.body.errors ?? {})], [400, ['cursor']], r.text);
    t.equal((await app.request('GET', `${path}&cursor=${cursor}`)).status, 200, 'its own company still pages on');
  });

  t.test('an incremental sync paged with cursors while entries are edited', async (t) => {
    const since = new Date().toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, `Sync ${i}`) });
      ids.push(r.body.id);
    }
    let editing = true;
    const edits: Promise<void>[] = [];
    // Two editors at once, so commits (and projection batches) interleave.
    for (const offset of [0, 1]) {
      edits.push(
        (async () => {
          for (let n = 0; editing && n < 200; n++) {
            const id = ids[(n * 2 + offset) % ids.length]!;
            await app.request('PUT', `/api/v1/travel-entries/${id}`, { body: trip(ana, `Sync edit ${n}`) });
          }
        })(),
      );
    }
    const seen = new Map<string, string>();
    let duplicatesWithoutEdit = 0;
    const { items } = await walk(app, `/api/v1/travel-entries?updatedSince=${encodeURIComponent(since)}`, 2);
    editing = false;
    await Promise.all(edits);
    for (const item of items) {
      const before = seen.get(item.id);
      if (before !== undefined && !(Date.parse(item.editedAt) > Date.parse(before))) duplicatesWithoutEdit++;
      seen.set(item.id, item.editedAt);
    }
    t.same(
      ids.filter((id) => !seen.has(id)),
      [],
      'no entry created before the sync started was missed',
    );
    t.equal(duplicatesWithoutEdit, 0, 'an entry shows up again only with a newer edit');
  });

  t.test('a sync resumes from its syncCursor and gets exactly what changed, however late it reached the lists', async (t) => {
    // The onboarding try (session 27): with nextCursor null at the end, a partner kept a time for
    // the next sync, and a time misses a change whose clock is before it but that reached the lists
    // after (a projector behind). The sync key is the projector's own order, so a cursor does not.
    const ready = (await app.request('GET', '/api/v1/payouts/ready?pageSize=1')).body.items as { id: string }[];
    const batch = await app.request('POST', '/api/v1/payouts/batches', {
      body: { entryIds: ready.map((e) => e.id), payoutMethod: 'BankTransfer', payoutDate: '2026-02-27' },
    });
    t.equal(batch.status, 201, batch.text);
    const since = 'updatedSince=2000-01-01T00:00:00Z';
    const lists = [
      [`/api/v1/travel-entries?${since}&includeDeleted=true`, 'rm_travel_entries'],
      [`/api/v1/employees?${since}`, 'rm_employees'],
      [`/api/v1/cost-centers?${since}&includeDeleted=true`, 'rm_cost_centers'],
      [`/api/v1/payouts/batches?${since}`, 'rm_payout_batches'],
    ] as const;
    for (const [path, table] of lists) {
      const { items, pages } = await walk(app, path, 3);
      const last = pages[pages.length - 1];
      t.type(last.syncCursor, 'string', `${path}: the last page of a sync says where it ended`);
      t.ok(
        pages.every((p) => 'syncCursor' in p),
        `${path}: every page of a sync has one`,
      );
      const resume = (pageSize: number) => app.request('GET', `${path}&pageSize=${pageSize}&cursor=${encodeURIComponent(last.syncCursor)}`);
      const again = await resume(3);
      t.same([again.status, again.body.items, again.body.nextCursor], [200, [], null], `${path}: nothing changed since`);
      t.equal(again.body.syncCursor, last.syncCursor, `${path}: an empty page keeps the place it was given`);
      if (items.length === 0) continue;
      // What a projector that ran late writes: the change's own clock (long before the last sync),
      // with a sync key drawn when it was applied.
      const late = items[0].id as string;
      await sql`update ${sql.table(table)} set edited_at = '2001-01-01T00:00:00Z', sync_seq = nextval('rm_sync_seq')
        where id = ${late}::uuid`.execute(app.rt.handle.db);
      const byTime = await app.request('GET', path.replace('2000-01-01', '2002-01-01'));
      t.notOk(
        byTime.body.items.some((i: { id: string }) => i.id === late),
        `${path}: a time kept from the last sync misses it`,
      );
      // Another page size: the process's page cache (read-cache.ts) holds the empty page above and
      // hears of no change made behind the projections' back.
      const resumed = await resume(4);
      t.same(
        resumed.body.items.map((i: { id: string }) => i.id),
        [late],
        `${path}: the sync resumed from its cursor gets it, and nothing else`,
      );
      t.not(resumed.body.syncCursor, last.syncCursor, `${path}: and a place after it`);
    }
    // Page numbers past the first are offsets into an order that edits move rows in: no place to resume.
    const numbered = await app.request('GET', `/api/v1/travel-entries?${since}&page=2&pageSize=1`);
    t.same([numbered.status, numbered.body.syncCursor], [200, null], 'a numbered page after the first has none');
    const first = await app.request('GET', `/api/v1/travel-entries?${since}&page=1&pageSize=1`);
    t.type(first.body.syncCursor, 'string', 'the first numbered page has one (it starts where a cursorless sync does)');
    const plain = await app.request('GET', '/api/v1/travel-entries?pageSize=2');
    t.notOk('syncCursor' in plain.body, 'a list without updatedSince has no syncCursor');
  });
});
