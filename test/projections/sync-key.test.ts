// The incremental sync's key (rm_*.sync_seq): an edit whose command clock is older than rows a
// client has already paged past, committed after the client's page (a late commit), still comes
// on a later cursor page. Paging on edited_at would have skipped it: its edited_at sorts before
// the cursor's row. The late commit is written behind the API's back, as a slow command would.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { startTestApp } from '../helpers/app.js';

t.test('a late commit with an older edit time is not skipped by a cursor sync', async (t) => {
  const app = await startTestApp(t);
  const ana = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Horvat' } })).body.id as string;
  const trip = { employeeId: ana, departureDate: '2025-04-14', returnDate: '2025-04-15', travelType: 'Domestic', currencyCode: 'EUR' };
  const late = (await app.request('POST', '/api/v1/travel-entries', { body: trip })).body;
  await new Promise((r) => setTimeout(r, 20));
  const since = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 20));
  const slowClock = new Date().toISOString(); // the late command's clock: after `since`, before every entry below
  await new Promise((r) => setTimeout(r, 20));
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await app.request('POST', '/api/v1/travel-entries', { body: trip })).body.id);

  const url = `/api/v1/travel-entries?updatedSince=${encodeURIComponent(since)}&pageSize=2`;
  const first = await app.request('GET', url);
  t.same(
    first.body.items.map((x: any) => x.id),
    ids.slice(0, 2),
  );
  const lastSeen = first.body.items[1];

  // The slow command commits now, with its older clock.
  const etag = (await app.request('GET', `/api/v1/travel-entries/${late.id}`)).headers.get('etag')!;
  await app.rt.store.appendToStream(
    `travelEntry-${late.id}`,
    [
      {
        id: randomUUID(),
        type: 'TravelEntryCancelled',
        data: { entryId: late.id, at: slowClock, previousStatus: 'Draft', reason: 'late' },
        metadata: { tenantId: app.tenant.id, actor: { system: 'test' }, correlationId: 'c', causationId: 'c', occurredAt: slowClock },
      },
    ],
    Number(JSON.parse(etag)),
  );
  for (let i = 0; i < 200; i++) {
    const r = await app.request('GET', `/api/v1/travel-entries/${late.id}`);
    if (r.body.status === 'Cancelled') break;
    await new Promise((res) => setTimeout(res, 25));
  }

  const rest = await app.request('GET', `${url}&cursor=${encodeURIComponent(first.body.nextCursor)}`);
  const restIds = rest.body.items.map((x: any) => x.id);
  t.ok(Date.parse(slowClock) < Date.parse(lastSeen.editedAt), 'its edit time sorts before the last row the client saw');
  t.same(restIds.sort(), [ids[2], late.id].sort(), 'the next cursor page has the late commit and the rest');
  t.equal(rest.body.nextCursor, null);
});
