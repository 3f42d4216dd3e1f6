// The whole catalog over real deliveries: which domain event gives which webhook, the envelope,
// the headers, data as of the event (not the current state), workflow approval versus
// auto-approval, and the fan-out rules (subscribed types, active subscriptions, same tenant,
// nothing from before the subscription, never twice for a redelivered event).
import t from 'tap';
import type { Test } from 'tap';
import { sql } from 'kysely';
import type { RecordedEvent } from '../../../src/eventstore/port.js';
import { getTenant, setWorkflow } from '../../../src/tenancy/tenants.js';
import { projectEvents, projectPage } from '../../../src/webhooks/catalog/projector.js';
import { WEBHOOK_EVENT_TYPES } from '../../../src/webhooks/catalog/event-types.js';
import { webhookEventGuid } from '../../../src/webhooks/catalog/event-id.js';
import { verifyServiceSignature } from '../../../src/webhooks/verify.js';
import type { ReceivedRequest } from '../../helpers/https-receiver.js';
import {
  createEntry,
  entryCommand,
  entryDraft,
  registerEmployee,
  sleep,
  startWebhookHarness,
  waitFor,
} from '../../helpers/webhook-harness.js';

const ALL = [...WEBHOOK_EVENT_TYPES];
const ENTRY_TYPES = ['entry.created', 'entry.updated', 'entry.approved', 'entry.paidout'];

interface Got {
  type: string;
  body: any;
  req: ReceivedRequest;
}
const parse = (reqs: ReceivedRequest[]): Got[] =>
  reqs
    .map((req) => ({ req, type: String(req.headers['service-event']), body: JSON.parse(req.body.toString('utf8')) }))
    .sort((a, b) => a.body.data.resourceVersion - b.body.data.resourceVersion);

t.test('webhook catalog', async (t) => {
  const h = await startWebhookHarness(t);
  const { app } = h;

  /** Every envelope matches its domain event: id, createdAt, revision, headers, signature. */
  const checkAgainstStream = async (t: Test, got: Got[], streamId: string, secret: string) => {
    const events = await app.rt.store.readStream(streamId);
    for (const g of got) {
      const e = events[g.body.data.resourceVersion] as RecordedEvent;
      const guid = webhookEventGuid(e.id);
      t.equal(g.body.id, `evt_${guid.replaceAll('-', '')}`, `${e.type}: envelope id derived from the domain event id`);
      t.match(g.body.id, /^evt_[0-9a-f]{32}$/);
      t.equal(g.req.headers['service-event-id'], guid, 'Service-Event-Id is the same GUID, dashed');
      t.equal(g.body.createdAt, e.metadata.occurredAt, 'createdAt is when the event was raised');
      t.same(Object.keys(g.body), ['id', 'type', 'createdAt', 'data']);
      t.equal(g.body.type, g.type);
      t.ok(verifyServiceSignature(g.req.body, g.req.headers['service-signature'], secret), 'signed with the subscription secret');
      t.same(
        g.req.rawHeaders
          .filter((_, i) => i % 2 === 0)
          .map((n) => n.toLowerCase())
          .sort(),
        [
          'connection',
          'content-length',
          'content-type',
          'host',
          'service-delivery-id',
          'service-event',
          'service-event-id',
          'service-signature',
          'user-agent',
        ],
        'exactly the six delivery headers (plus what HTTP itself adds)',
      );
      t.equal(g.req.headers['content-type'], 'application/json; charset=utf-8');
      t.equal(g.req.headers['user-agent'], 'Service-Webhook/1.0');
    }
  };

  t.test('employees: created, then updated for an update and for archiving (HTTP routes)', async (t) => {
    const sub = await h.subscribe(ALL, { path: '/employees' });
    const id = await registerEmployee(app, { lastName: 'Horvat', position: 'Engineer' });
    t.equal(
      (await app.request('PUT', `/api/v1/employees/${id}`, { body: { firstName: 'Ana', lastName: 'Kovač', position: 'Lead' } })).status,
      200,
    );
    t.equal((await app.request('POST', `/api/v1/employees/${id}/archive`)).status, 200);
    const got = parse(await h.waitForRequests('/employees', 3));
    t.same(
      got.map((g) => g.type),
      ['employee.created', 'employee.updated', 'employee.updated'],
    );
    t.same(
      got.map((g) => [g.body.data.lastName, g.body.data.position, g.body.data.isArchived, g.body.data.resourceVersion]),
      [
        ['Horvat', 'Engineer', false, 0],
        ['Kovač', 'Lead', false, 1],
        ['Kovač', 'Lead', true, 2],
      ],
      'data is the employee as of each event',
    );
    await checkAgainstStream(t, got, `employee-${id}`, sub.signingSecret);
    await sleep(200);
    t.equal(h.received('/employees').length, 3, 'nothing more');
  });

  t.test('a tenant without a workflow: auto-approval is entry.updated, never entry.approved', async (t) => {
    const tenant = await app.newTenant();
    const sub = await h.subscribe(ENTRY_TYPES, { path: '/auto', key: tenant.key });
    const employeeId = await registerEmployee(app, {}, tenant.key);
    const entryId = await createEntry(app, tenant.id, employeeId);
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
    await entryCommand(app, tenant.id, entryId, (id) => ({
      type: 'AddAttachments',
      data: {
        entryId: id,
        attachments: [{ id: '0d9e4b5c-7a7e-4f7d-9c54-3f1e0b6f1a01', fileName: 'r.pdf', contentType: 'application/pdf', size: 10 }],
      },
    }));
    await entryCommand(app, tenant.id, entryId, (id) => ({ type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps: [] } }));
    await entryCommand(app, tenant.id, entryId, (id) => ({
      type: 'MarkTravelEntryPaidOut',
      data: { entryId: id, payoutBatchId: 'batch-1', payoutMethod: 'BankTransfer', payoutDate: '2026-03-20' },
    }));
    await entryCommand(app, tenant.id, entryId, (id) => ({
      type: 'ReverseTravelEntryPayout',
      data: { entryId: id, payoutBatchId: 'batch-1' },
    }));
    const got = parse(await h.waitForRequests('/auto', 7));
    const events = await app.rt.store.readStream(`travelEntry-${entryId}`);
    t.same(
      events.map((e) => e.type),
      [
        'TravelEntryCreated',
        'TravelEntryExpenseAdded',
        'TravelEntryAttachmentsAdded',
        'TravelEntrySubmitted',
        'TravelEntryAutoApproved',
        'TravelEntryPaidOut',
        'TravelEntryPayoutReversed',
      ],
    );
    t.same(
      got.map((g) => g.type),
      ['entry.created', 'entry.updated', 'entry.updated', 'entry.updated', 'entry.updated', 'entry.paidout', 'entry.updated'],
    );
    t.same(
      got.map((g) => [g.body.data.status, g.body.data.isLocked, g.body.data.isPaidOut]),
      [
        [0, false, false],
        [0, false, false],
        [0, false, false],
        [1, true, false],
        [2, true, false],
        [2, true, true],
        [2, true, false],
      ],
      'status, lock and payout as of each event',
    );
    t.match(got[0]!.body.data, {
      id: entryId,
      employeeId,
      departureDate: '2026-03-02',
      returnDate: '2026-03-03',
      advancePayment: 200,
      currencyCode: 'EUR',
      advancePaymentInBaseCurrency: 200,
    });
    await checkAgainstStream(t, got, `travelEntry-${entryId}`, sub.signingSecret);
  });

  t.test('a tenant with a workflow: steps are entry.updated, the last step is entry.approved', async (t) => {
    const tenant = await app.newTenant();
    const sub = await h.subscribe(['entry.approved', 'entry.updated'], { path: '/workflow', key: tenant.key });
    const traveller = await registerEmployee(app, {}, tenant.key);
    const first = await registerEmployee(app, { firstName: 'First' }, tenant.key);
    const second = await registerEmployee(app, { firstName: 'Second' }, tenant.key);
    await setWorkflow(app.rt.handle.db, tenant.id, { steps: [{ approverIds: [first] }, { approverIds: [second] }] });
    // The facts the entry shell derives from the tenant's workflow (travel-entries/workflow-routes.ts).
    const workflowSteps = (await getTenant(app.rt.handle.db, tenant.id))!.workflow!.steps.map((s, i) => ({
      stepId: `step-${i + 1}`,
      name: `Step ${i + 1}`,
      eligibleApproverIds: s.approverIds,
    }));
    const approve = (approverId: string) => (id: string) => ({
      type: 'ApproveTravelEntry' as const,
      data: { entryId: id, approverId, approverIsActiveEmployee: true },
    });

    const approved = await createEntry(app, tenant.id, traveller);
    await entryCommand(app, tenant.id, approved, (id) => ({ type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps } }));
    await entryCommand(app, tenant.id, approved, approve(first));
    await entryCommand(app, tenant.id, approved, approve(second));
    const got = parse((await h.waitForRequests('/workflow', 3)).filter((r) => JSON.parse(r.body.toString()).data.id === approved));
    t.same(
      got.map((g) => [g.type, g.body.data.status]),
      [
        ['entry.updated', 1],
        ['entry.updated', 1],
        ['entry.approved', 2],
      ],
      'submission and the intermediate approval are updates; the terminal approval is entry.approved',
    );
    await checkAgainstStream(t, got, `travelEntry-${approved}`, sub.signingSecret);

    // Reject, request changes and cancel are updates too.
    const other = await createEntry(app, tenant.id, traveller);
    const decide = (type: 'RejectTravelEntry' | 'RequestTravelEntryChanges') => (id: string) => ({
      type,
      data: { entryId: id, approverId: first, approverIsActiveEmployee: true, reason: 'why' },
    });
    await entryCommand(app, tenant.id, other, (id) => ({ type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps } }));
    await entryCommand(app, tenant.id, other, decide('RequestTravelEntryChanges'));
    await entryCommand(app, tenant.id, other, (id) => ({
      type: 'ReplaceTravelEntry',
      data: { entryId: id, entry: entryDraft(traveller, { returnDate: '2026-03-04' }) },
    }));
    await entryCommand(app, tenant.id, other, (id) => ({ type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps } }));
    await entryCommand(app, tenant.id, other, decide('RejectTravelEntry'));
    const cancelled = await createEntry(app, tenant.id, traveller);
    await entryCommand(app, tenant.id, cancelled, (id) => ({ type: 'CancelTravelEntry', data: { entryId: id, reason: null } }));
    const forOther = parse(
      await waitFor(() => {
        const r = h.received('/workflow').filter((x) => JSON.parse(x.body.toString()).data.id === other);
        return r.length >= 5 ? r : undefined;
      }),
    );
    t.same(
      forOther.map((g) => [g.type, g.body.data.status, g.body.data.returnDate]),
      [
        ['entry.updated', 1, '2026-03-03'],
        ['entry.updated', 5, '2026-03-03'],
        ['entry.updated', 5, '2026-03-04'],
        ['entry.updated', 1, '2026-03-04'],
        ['entry.updated', 3, '2026-03-04'],
      ],
    );
    const forCancelled = parse(
      await waitFor(() => {
        const r = h.received('/workflow').filter((x) => JSON.parse(x.body.toString()).data.id === cancelled);
        return r.length >= 1 ? r : undefined;
      }),
    );
    t.same(
      forCancelled.map((g) => [g.type, g.body.data.status]),
      [['entry.updated', 4]],
      'creation is not subscribed here; cancellation is an update',
    );
  });

  t.test('a legacy import is entry.created', async (t) => {
    const tenant = await app.newTenant();
    await h.subscribe(['entry.created'], { path: '/import', key: tenant.key });
    const employeeId = await registerEmployee(app, {}, tenant.key);
    const entryId = '6a0c1b2e-3d4f-4a5b-8c6d-7e8f9a0b1c2d';
    await entryCommand(app, tenant.id, entryId, {
      type: 'ImportTravelEntry',
      data: {
        entryId,
        entryNumber: 'LEG-1',
        entry: entryDraft(employeeId, {
          entryDate: '2022-05-01',
          departureDate: '2022-05-02',
          returnDate: '2022-05-03',
          advancePaymentDate: null,
        }),
        status: 'Approved',
        paidOutAt: '2022-06-01T00:00:00.000Z',
      },
    });
    const [got] = parse(await h.waitForRequests('/import', 1));
    t.match(got!.body, {
      type: 'entry.created',
      data: { id: entryId, entryNumber: 'LEG-1', status: 2, isPaidOut: true, isLocked: true, resourceVersion: 0 },
    });
  });

  t.test(
    'fan-out: subscribed types only, active subscriptions of the same tenant only, nothing from before the subscription',
    async (t) => {
      const tenant = await app.newTenant();
      const other = await app.newTenant();
      const before = await registerEmployee(app, { firstName: 'Before' }, tenant.key);
      await h.subscribe(['employee.created'], { path: '/fan-a', key: tenant.key });
      await h.subscribe(['employee.updated'], { path: '/fan-b', key: tenant.key });
      await h.subscribe(['employee.created', 'employee.updated'], { path: '/fan-other', key: other.key });
      const gone = await h.subscribe(['employee.created'], { path: '/fan-deleted', key: tenant.key });
      t.equal((await app.request('DELETE', `/api/v1/webhooks/${gone.id}`, { key: tenant.key })).status, 204);
      const id = await registerEmployee(app, { firstName: 'After' }, tenant.key);
      t.equal(
        (await app.request('PUT', `/api/v1/employees/${before}`, { body: { firstName: 'Before', lastName: 'Changed' }, key: tenant.key }))
          .status,
        200,
      );
      const [a] = parse(await h.waitForRequests('/fan-a', 1));
      const [b] = parse(await h.waitForRequests('/fan-b', 1));
      await sleep(300);
      t.equal(h.received('/fan-a').length, 1);
      t.equal(h.received('/fan-b').length, 1);
      t.match(
        a!.body,
        { type: 'employee.created', data: { id, firstName: 'After' } },
        'the employee registered before the subscription is not announced',
      );
      t.match(
        b!.body,
        { type: 'employee.updated', data: { id: before, lastName: 'Changed', resourceVersion: 1 } },
        'but its later update is',
      );
      t.equal(h.received('/fan-other').length, 0, "another tenant's subscription gets nothing");
      t.equal(h.received('/fan-deleted').length, 0, 'a deleted subscription gets nothing');
    },
  );

  t.test('one delivery per subscription and event: a redelivered domain event adds nothing', async (t) => {
    const tenant = await app.newTenant();
    const s1 = await h.subscribe(['employee.created'], { path: '/once-1', key: tenant.key });
    const s2 = await h.subscribe(['employee.created'], { path: '/once-2', key: tenant.key });
    const id = await registerEmployee(app, {}, tenant.key);
    const [r1] = await h.waitForRequests('/once-1', 1);
    const [r2] = await h.waitForRequests('/once-2', 1);
    t.same(r1!.body, r2!.body, 'the body was serialized once: the same bytes for every subscription');
    t.equal(r1!.headers['service-event-id'], r2!.headers['service-event-id'], 'the same event id for every subscription');
    t.not(r1!.headers['service-delivery-id'], r2!.headers['service-delivery-id'], 'one delivery row each');

    const [event] = await app.rt.store.readStream(`employee-${id}`);
    t.equal(
      await projectEvents({ db: app.rt.handle.db, store: app.rt.store }, [event!]),
      0,
      'projecting the same event again inserts nothing',
    );
    const rows = await sql<{
      n: number;
    }>`select count(*)::int as n from webhook_deliveries where source_event_id = ${event!.id}::uuid`.execute(app.rt.handle.db);
    t.equal(rows.rows[0]!.n, 2);
    await sleep(200);
    t.equal(h.received('/once-1').length + h.received('/once-2').length, 2);
    t.ok(s1.id && s2.id);
  });

  t.test(
    'a page of events in runs of one insert: each fans out to its own subscribers, and a page projected again adds nothing',
    async (t) => {
      const tenant = await app.newTenant();
      const other = await app.newTenant();
      // Received once the live projector has passed all the events below (it keeps their order).
      await h.subscribe(['employee.updated'], { path: '/run-marker', key: tenant.key });
      const first = await registerEmployee(app, { firstName: 'First' }, tenant.key);
      const second = await registerEmployee(app, { firstName: 'Second' }, other.key);
      // Enough more that the page is more than one run (projector.ts, RUN_EVENTS).
      const more: string[] = [];
      for (let i = 0; i < 21; i++) more.push(await registerEmployee(app, { firstName: `More${i}` }, tenant.key));
      const put = await app.request('PUT', `/api/v1/employees/${first}`, {
        body: { firstName: 'First', lastName: 'Changed' },
        key: tenant.key,
      });
      t.equal(put.status, 200);
      await h.waitForRequests('/run-marker', 1);

      // Subscriptions made now, dated back to before the events: the live projector found no
      // subscribers for them, the page below finds these.
      const created = await h.subscribe(['employee.created'], { path: '/run-created', key: tenant.key });
      const both = await h.subscribe(['employee.created', 'employee.updated'], { path: '/run-both', key: tenant.key });
      const elsewhere = await h.subscribe(['employee.created'], { path: '/run-other', key: other.key });
      await sql`update webhook_subscriptions set created_at = created_at - interval '1 hour'
      where id in (${created.id}::uuid, ${both.id}::uuid, ${elsewhere.id}::uuid)`.execute(app.rt.handle.db);

      const [firstCreated, firstUpdated] = await app.rt.store.readStream(`employee-${first}`);
      const [secondCreated] = await app.rt.store.readStream(`employee-${second}`);
      const moreCreated = await Promise.all(more.map(async (id) => (await app.rt.store.readStream(`employee-${id}`))[0]!));
      // /run-created dated at the eleventh extra creation: only the events recorded since are for it,
      // within the same run as those before.
      const cutoff = moreCreated[10]!.recordedAt;
      await sql`update webhook_subscriptions set created_at = ${cutoff} where id = ${created.id}::uuid`.execute(app.rt.handle.db);
      const forCreated = [firstCreated!, ...moreCreated]
        .filter((e) => e.recordedAt >= cutoff)
        .map((e) => e.streamId.replace('employee-', ''));
      t.ok(forCreated.length >= 10 && forCreated.length <= 11, 'the earlier creations are older than the subscription');
      const page = [firstCreated!, secondCreated!, ...moreCreated, firstUpdated!];
      const deps = { db: app.rt.handle.db, store: app.rt.store, wakeup: app.rt.delivery.wakeup };
      t.equal(
        await projectPage(deps, page),
        forCreated.length + 23 + 1,
        '/run-created: those since its creation; 23 for /run-both, 1 for /run-other',
      );
      const createdSince = parse(await h.waitForRequests('/run-created', forCreated.length));
      const both23 = parse(await h.waitForRequests('/run-both', 23));
      const other1 = parse(await h.waitForRequests('/run-other', 1));
      t.same(
        new Set(createdSince.map((g) => g.body.data.id)),
        new Set(forCreated),
        "the tenant's creations since the subscription, across the runs",
      );
      t.match(
        both23.filter((g) => g.body.data.id === first).map((g) => g.body),
        [
          { type: 'employee.created', data: { id: first, resourceVersion: 0 } },
          { type: 'employee.updated', data: { id: first, lastName: 'Changed', resourceVersion: 1 } },
        ],
      );
      t.match(
        other1[0]!.body,
        { type: 'employee.created', data: { id: second, firstName: 'Second' } },
        "each event reaches its own tenant's subscribers only",
      );
      t.equal(await projectPage(deps, page), 0, 'projecting the page again inserts nothing');
      t.equal(await projectEvents(deps, [firstCreated!, secondCreated!]), 0, 'nor does a run of it');
      t.equal(await projectEvents(deps, []), 0, 'an empty run is no statement and no delivery');
      await sleep(200);
      t.same(
        ['/run-created', '/run-both', '/run-other', '/run-marker'].map((p) => h.received(p).length),
        [forCreated.length, 23, 1, 1],
      );
    },
  );

  t.test('commit-to-receipt latency: the dispatcher is woken, not polled', async (t) => {
    const tenant = await app.newTenant();
    await h.subscribe(['employee.created'], { path: '/latency', key: tenant.key });
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = Date.now();
      await registerEmployee(app, { firstName: `L${i}` }, tenant.key);
      await h.waitForRequests('/latency', i + 1);
      latencies.push(Date.now() - started);
    }
    latencies.sort((a, b) => a - b);
    t.comment(`request+commit to receipt, ms: p50 ${latencies[10]} max ${latencies[19]}`);
    t.ok(latencies[10]! < 500, `median under the 1 s poll interval (${latencies[10]} ms)`);
  });
});
