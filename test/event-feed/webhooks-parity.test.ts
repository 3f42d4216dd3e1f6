// A partner may mix the feed and webhooks freely when it dedupes on the event id: for the same
// events both show the same ids and the same bytes. Real webhooks (the HTTPS receiver, signed
// deliveries) against GET /api/v1/events and /events/{id}, over a lifecycle that touches every
// kind of entry change and a non-ASCII name (UTF-8 bytes).
import t from 'tap';
import { createEntry, entryCommand, registerEmployee, startWebhookHarness, waitFor } from '../helpers/webhook-harness.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/catalog/event-types.js';

const evtOf = (serviceEventId: string) => `evt_${serviceEventId.replaceAll('-', '')}`;

t.test('the feed and the webhooks give the same ids and bytes', async (t) => {
  const h = await startWebhookHarness(t);
  const { app } = h;
  const tenant = app.tenant;
  await h.subscribe([...WEBHOOK_EVENT_TYPES], { path: '/all' });

  const employeeId = await registerEmployee(app, { firstName: 'Đurđa', lastName: 'Kovačić' });
  t.equal((await app.request('PUT', `/api/v1/employees/${employeeId}`, { body: { firstName: 'Đurđa', lastName: 'Šimić' } })).status, 200);
  const entryId = await createEntry(app, tenant.id, employeeId, { purpose: 'Radionica — Wien “2026”' });
  await entryCommand(app, tenant.id, entryId, (id) => ({
    type: 'AddExpense',
    data: {
      entryId: id,
      expense: {
        date: '2026-03-02',
        category: 'Accommodation',
        amount: '120.00',
        currencyCode: 'EUR',
        exchangeRate: null,
        exchangeRateSource: null,
        amountInBaseCurrency: '120.00',
      },
    },
  }));
  await entryCommand(app, tenant.id, entryId, (id) => ({ type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps: [] } }));
  await entryCommand(app, tenant.id, entryId, (id) => ({
    type: 'MarkTravelEntryPaidOut',
    data: { entryId: id, payoutBatchId: 'batch-1', payoutMethod: 'BankTransfer', payoutDate: '2026-03-20' },
  }));

  const deliveries = await h.waitForRequests('/all', 7);
  const feed = await waitFor(async () => {
    const res = await app.request('GET', '/api/v1/events?limit=1000');
    return res.body.items?.length >= deliveries.length ? res : undefined;
  });

  t.equal(feed.body.items.length, deliveries.length, 'as many events in the feed as deliveries');
  const feedIds = new Set(feed.body.items.map((e: any) => e.id));
  for (const d of deliveries) {
    const id = evtOf(String(d.headers['service-event-id']));
    const body = d.body.toString('utf8');
    t.ok(feedIds.has(id), `${id} (${d.headers['service-event']}) is in the feed`);
    t.equal(JSON.parse(body).id, id, 'the delivered envelope carries that id');
    const one = await app.request('GET', `/api/v1/events/${id}`);
    t.ok(Buffer.from(one.text, 'utf8').equals(d.body), `${id}: /events/{id} answers the delivered bytes`);
    t.ok(feed.text.includes(body), `${id}: the page holds the delivered bytes`);
  }
  t.same(
    feed.body.items.map((e: any) => e.type),
    ['employee.created', 'employee.updated', 'entry.created', 'entry.updated', 'entry.updated', 'entry.updated', 'entry.paidout'],
    'every catalog event, in commit order',
  );
});
