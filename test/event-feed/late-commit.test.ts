// The feed never skips an event committed late. An append whose transaction took its place in the
// feed first (its xid) is held open while a later append commits; a partner polling meanwhile gets
// nothing past the open one, and once it commits the next poll, from the cursor it already had,
// holds both, the late one first. PostgreSQL only: the embedded database has one connection, so two
// appends cannot overlap there (the race cannot happen).
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { startTestApp } from '../helpers/app.js';
import { TEST_DATABASE_URL } from '../helpers/db.js';
import { createEntry, registerEmployee, sleep, waitFor } from '../helpers/webhook-harness.js';
import { appendEvents } from '../../src/eventstore/postgres/append.js';
import { webhookEventGuid } from '../../src/webhooks/catalog/event-id.js';

const evtOf = (eventId: string) => `evt_${webhookEventGuid(eventId).replaceAll('-', '')}`;

const skip = TEST_DATABASE_URL === undefined && 'one connection on the embedded database: appends cannot overlap';

t.test('an event committed late is in the feed, before the one that committed first', { skip }, async (t) => {
  const app = await startTestApp(t);
  const tenantId = app.tenant.id;
  const employeeId = await registerEmployee(app);
  const template = await createEntry(app, tenantId, employeeId);
  const head = await waitFor(async () => {
    const res = await app.request('GET', '/api/v1/events');
    return res.body.items?.length === 2 ? res.body : undefined;
  });
  const cursor: string = head.nextCursor;

  // A copy of the entry's creation under a new entry id, appended in a transaction held open.
  const [created] = await app.rt.store.readStream(`travelEntry-${template}`);
  const lateEntry = randomUUID();
  const lateEvent = {
    id: randomUUID(),
    type: created!.type,
    data: { ...(created!.data as object), entryId: lateEntry, entryNumber: '2026-90001' },
    metadata: { ...created!.metadata, occurredAt: new Date().toISOString() },
  };
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let appended!: () => void;
  const inside = new Promise<void>((r) => (appended = r));
  const slow = app.rt.handle.db.transaction().execute(async (trx) => {
    await appendEvents(trx, `travelEntry-${lateEntry}`, [lateEvent], 'no_stream');
    appended();
    await held;
  });
  await inside;

  // Committed while the first is open: later in the feed, visible first in the table.
  const early = await createEntry(app, tenantId, employeeId);
  const [earlyCreated] = await app.rt.store.readStream(`travelEntry-${early}`);

  await sleep(500);
  const meanwhile = await app.request('GET', `/api/v1/events?after=${cursor}`);
  t.same(meanwhile.body, { items: [], nextCursor: cursor }, 'nothing is served past the open transaction, so no cursor can pass it');

  const polling = app.request('GET', `/api/v1/events?after=${cursor}&wait=20`);
  await sleep(200);
  release();
  await slow;
  const res = await polling;
  const ids = async () => {
    let items = res.body.items as any[];
    let next = res.body.nextCursor as string;
    while (items.length < 2) {
      const more = await app.request('GET', `/api/v1/events?after=${next}&wait=5`);
      items = [...items, ...more.body.items];
      next = more.body.nextCursor;
    }
    return items.map((e) => e.id);
  };
  t.same(
    await ids(),
    [evtOf(lateEvent.id), evtOf(earlyCreated!.id)],
    'the late commit first (feed order), then the early one; none skipped',
  );

  const full = await app.request('GET', '/api/v1/events');
  t.same(
    full.body.items.map((e: any) => e.data.id),
    [employeeId, template, lateEntry, early],
    'the whole feed',
  );
});
