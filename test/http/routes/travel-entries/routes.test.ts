// Travel entries over real HTTP: atomic create with children and exchange rates, read-your-writes,
// full replacement, child rows, the workflow with and without approval steps, locking, ETags,
// entry numbers, legacy import and tenant isolation.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from '../../../../src/infra/database.js';
import { parsePosition } from '../../../../src/eventstore/port.js';
import { advanceCheckpoint } from '../../../../projections/checkpoints.js';
import { entryNumberStream, formatEntryNumber } from '../../../../src/application/travel-entries/entry-numbers.js';
import { importRatesFile } from '../../../../src/rates/import-command.js';
import { setWorkflow } from '../../../../src/tenancy/tenants.js';
import { fixturePath, HNB_RANGE } from '../../../rates/fixture-files.js';
import { startTestApp, type TestApp } from '../../../helpers/app.js';

async function employee(app: TestApp, key: string, firstName: string): Promise<string> {
  const res = await app.request('POST', '/api/v1/employees', { key, body: { firstName, lastName: 'Test' } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.id;
}

async function costCenter(app: TestApp, key: string, code: string): Promise<string> {
  const res = await app.request('POST', '/api/v1/cost-centers', { key, body: { code, name: `Cost center ${code}` } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.id;
}

const trip = (employeeId: string, extra: Record<string, unknown> = {}) => ({
  employeeId,
  entryDate: '2025-04-14',
  departureDate: '2025-04-14',
  returnDate: '2025-04-16',
  departureLocation: 'Zagreb',
  destination: 'Wien',
  travelType: 'Foreign',
  purpose: 'Customer workshop',
  advancePayment: 100,
  currencyCode: 'USD',
  ...extra,
});

t.test('travel entries', async (t) => {
  const app = await startTestApp(t);
  await importRatesFile(app.rt.handle.db, 'HNB', fixturePath(HNB_RANGE));
  const ana = await employee(app, app.tenant.key, 'Ana');
  const [cc1, cc2, cc9] = [
    await costCenter(app, app.tenant.key, 'CC-1'),
    await costCenter(app, app.tenant.key, 'CC-2'),
    await costCenter(app, app.tenant.key, 'CC-9'),
  ];

  t.test('atomic create with children, exchange rates and a gap-free number', async (t) => {
    const res = await app.request('POST', '/api/v1/travel-entries', {
      body: trip(ana, {
        expenses: [
          { date: '2025-04-15', category: 'Hotel', amount: '200.00', currencyCode: 'USD' },
          { date: '2025-04-15', category: 'Taxi', amount: 12.5, currencyCode: 'EUR' },
        ],
        perDiems: [
          {
            countryCode: 'AT',
            departureTime: '2025-04-14T06:00:00Z',
            arrivalTime: '2025-04-16T18:00:00Z',
            mealsProvided: 2,
            amount: 150,
            currencyCode: 'EUR',
          },
        ],
        costCenterAllocations: [
          { costCenterId: cc1, share: 60 },
          { costCenterId: cc2, share: '40' },
        ],
      }),
    });
    t.equal(res.status, 201, res.text);
    const e = res.body;
    t.match(e, {
      entryNumber: /^2025-\d{5}$/,
      status: 'Draft',
      locked: false,
      isPaidOut: false,
      destinationCountryCode: 'AT',
      advancePaymentDate: '2025-04-14',
    });
    t.same([e.advancePaymentInBaseCurrency, e.advancePaymentExchangeRateSource], [88.14, 'HNB'], '100 USD / 1.1346 = 88.14 EUR');
    t.same(
      [e.expenses[0].amountInBaseCurrency, e.expenses[0].exchangeRate, e.expenses[0].exchangeRateSource],
      [175.79, 1.1377, 'HNB'],
      '200 USD / 1.1377 = 175.79 EUR at the expense date',
    );
    t.same([e.expenses[1].amountInBaseCurrency, e.expenses[1].exchangeRateSource], [12.5, null], 'same currency: no rate');
    t.same([e.perDiems[0].mealsProvided, e.perDiems[0].exchangeRateSource], [2, null]);
    t.equal(e.costCenterAllocations.length, 2);
    t.equal(res.headers.get('etag'), '"0"');
    const read = await app.request('GET', `/api/v1/travel-entries/${e.id}`);
    t.same([read.status, read.body], [200, e], 'read-your-writes');

    const second = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { advancePayment: 0 }) });
    const n1 = Number(e.entryNumber.slice(5));
    t.equal(second.body.entryNumber, `2025-${String(n1 + 1).padStart(5, '0')}`, 'the next number follows without a gap');
  });

  // This process remembers its last reservation and appends the next without a read; a number taken
  // meanwhile by another process must make it re-read, not fail or reuse the number.
  t.test('a number reserved by another process is skipped, not reused', async (t) => {
    const before = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { advancePayment: 0 }) });
    const n = Number(before.body.entryNumber.slice(5));
    const stream = entryNumberStream(app.tenant.id, '2025');
    const last = (await app.rt.store.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]!;
    const outside = formatEntryNumber('2025', n + 1);
    await app.rt.store.appendToStream(
      stream,
      [
        {
          id: randomUUID(),
          type: 'EntryNumberReserved',
          data: { sequence: n + 1, entryNumber: outside, entryId: randomUUID() },
          metadata: {
            tenantId: app.tenant.id,
            actor: { system: 'other-process' },
            correlationId: 'x',
            causationId: 'x',
            occurredAt: new Date().toISOString(),
          },
        },
      ],
      last.revision,
    );
    const after = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { advancePayment: 0 }) });
    t.same([after.status, after.body.entryNumber], [201, formatEntryNumber('2025', n + 2)]);
  });

  // GETs are served from a per-process cache, yet never older than the database was when the request
  // arrived: a projection commit anywhere (here: another connection, as another projector process
  // would) is seen by the very next GET, without polling. Proven against a change made behind the
  // cache's back, which the cache keeps showing until a commit is announced.
  t.test(
    'read cache: as fresh as the database, across processes',
    { skip: app.rt.handle.kind !== 'postgres' && 'the embedded database has no read cache' },
    async (t) => {
      const other = await openDatabase({
        databaseUrl: app.rt.handle.connectionString,
        dataDir: 'memory://',
        searchPath: app.rt.handle.searchPath,
        poolSize: 2,
      });
      t.teardown(() => other.close());
      const created = (await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { advancePayment: 0, purpose: 'Original' }) }))
        .body;
      const purpose = async (key?: string) => {
        const r = await app.request('GET', `/api/v1/travel-entries/${created.id}`, key ? { key } : {});
        return r.status === 200 ? r.body.purpose : r.status;
      };
      t.equal(await purpose(), 'Original');
      const setPurpose = (value: string) => sql`
      update rm_travel_entries set doc = jsonb_set(doc, '{entry,purpose}', to_jsonb(${value}::text)) where id = ${created.id}::uuid`;
      await setPurpose('Silent').execute(other.db);
      t.equal(await purpose(), 'Original', 'a change nobody announced: the cached row is served');

      const announce = async (ids?: string[]) => {
        await other.db.transaction().execute(async (trx) => {
          const cp = await sql<{
            position: string;
          }>`select position from projection_checkpoints where name = 'travel-entries' for update`.execute(trx);
          if (ids) await setPurpose('Announced').execute(trx);
          await advanceCheckpoint(trx, 'travel-entries', parsePosition(cp.rows[0]!.position), 0, ids);
        });
      };
      const upper = async () => (await app.request('GET', `/api/v1/travel-entries/${created.id.toUpperCase()}`)).body.purpose;
      t.equal(await upper(), 'Original', 'the id in upper case is the same cached row');
      await announce([created.id]);
      t.equal(await purpose(), 'Announced', 'a commit announced elsewhere is seen by the very next GET');
      t.equal(await upper(), 'Announced', 'whatever the letter case of the id');
      await setPurpose('Silent again').execute(other.db);
      t.equal(await purpose(), 'Announced', 'cached again');
      await announce(undefined); // "everything changed", as a batch of over 100 rows announces
      t.equal(await purpose(), 'Silent again', 'an announcement of all rows empties the cache');

      const stranger = await app.newTenant();
      t.equal(await purpose(stranger.key), 404, "a cached row is still another tenant's 404");

      // Without its listener the process could miss an announcement: it stops caching.
      const cache = app.rt.app!.deps.readCache!;
      await sql`select pg_terminate_backend(${cache.listenerSessionPid()})`.execute(other.db);
      for (const deadline = Date.now() + 20_000; cache.caching && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
      await setPurpose('Unannounced').execute(other.db);
      t.equal(await purpose(), 'Unannounced', 'with the listener gone, every GET reads the database');
    },
  );

  t.test('rejected creates take no number; rate problems are keyed by field', async (t) => {
    const before = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { advancePayment: 0 }) });
    const noRate = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { advancePaymentDate: '2024-01-10' }) });
    t.same(
      [noRate.status, noRate.body.code, Object.keys(noRate.body.errors)],
      [400, 'EXCHANGE_RATE_UNAVAILABLE', ['manualAdvanceExchangeRate']],
    );
    const manualRefused = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { manualAdvanceExchangeRate: 1.2 }) });
    t.same(
      [manualRefused.status, manualRefused.body.code],
      [400, 'EXCHANGE_RATE_UNAVAILABLE'],
      'a manual rate while an official one exists',
    );
    const manual = await app.request('POST', '/api/v1/travel-entries', {
      body: trip(ana, { advancePaymentDate: '2024-01-10', manualAdvanceExchangeRate: 1.25 }),
    });
    t.same([manual.status, manual.body.advancePaymentInBaseCurrency, manual.body.advancePaymentExchangeRateSource], [201, 80, 'MANUAL']);
    const mixed = await app.request('POST', '/api/v1/travel-entries', {
      body: trip(ana, { advancePaymentDate: '2024-01-10', returnDate: '2025-04-01' }),
    });
    t.same(mixed.body.code, 'VALIDATION_FAILED', 'rate and validation problems together');
    t.ok(mixed.body.errors.returnDate && mixed.body.errors.manualAdvanceExchangeRate);
    const unknownEmployee = await app.request('POST', '/api/v1/travel-entries', { body: trip('6f1c1a52-3a0e-4c53-9d4b-0d7b7c1f9a10') });
    t.same(unknownEmployee.body.errors, { employeeId: ['No such employee in this company.'] });
    const shares = await app.request('POST', '/api/v1/travel-entries', {
      body: trip(ana, { costCenterAllocations: [{ costCenterId: cc1, share: 50 }] }),
    });
    t.ok(shares.body.errors.costCenterAllocations, 'shares must add up to 100');
    const after = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { advancePayment: 0 }) });
    const gap = Number(after.body.entryNumber.slice(5)) - Number(before.body.entryNumber.slice(5));
    t.equal(gap, 2, 'only the two accepted creates took numbers');
  });

  t.test('full replacement clears omitted fields and keeps place ids only when sent back', async (t) => {
    const created = await app.request('POST', '/api/v1/travel-entries', {
      body: trip(ana, { destinationPlaceId: 'place-wien', report: 'Draft report' }),
    });
    const replaced = await app.request('PUT', `/api/v1/travel-entries/${created.body.id}`, {
      body: trip(ana, { destination: 'Graz' }),
      headers: { 'if-match': '"0"' },
    });
    t.equal(replaced.status, 200, replaced.text);
    t.same([replaced.body.destinationPlaceId, replaced.body.report, replaced.body.destination], [null, null, 'Graz']);
    t.equal(replaced.body.entryNumber, created.body.entryNumber);
    const stale = await app.request('PUT', `/api/v1/travel-entries/${created.body.id}`, {
      body: trip(ana),
      headers: { 'if-match': '"0"' },
    });
    t.same([stale.status, stale.body.code], [412, 'PRECONDITION_FAILED']);
  });

  t.test('child rows one at a time', async (t) => {
    const { body: e } = await app.request('POST', '/api/v1/travel-entries', {
      body: trip(ana, { advancePayment: 0, currencyCode: 'EUR' }),
    });
    const added = await app.request('POST', `/api/v1/travel-entries/${e.id}/expenses`, {
      body: { date: '2025-04-14', category: 'Train', amount: 30, currencyCode: 'EUR' },
    });
    t.same([added.status, added.body.expenses.length], [201, 1]);
    const expenseId = added.body.expenses[0].id;
    const changed = await app.request('PUT', `/api/v1/travel-entries/${e.id}/expenses/${expenseId}`, {
      body: { date: '2025-04-14', category: 'Train', amount: 35, currencyCode: 'EUR' },
    });
    t.same(changed.body.expenses[0].amount, 35);
    const pd = await app.request('POST', `/api/v1/travel-entries/${e.id}/per-diems`, {
      body: {
        countryCode: 'HR',
        departureTime: '2025-04-14T06:00:00Z',
        arrivalTime: '2025-04-14T20:00:00Z',
        breakfastsProvided: 1,
        lunchesProvided: 1,
        dinnersProvided: 0,
        amount: 26.54,
        currencyCode: 'EUR',
        overrideAmount: 20,
        overrideReason: 'capped',
      },
    });
    t.same([pd.body.perDiems[0].mealsProvided, pd.body.perDiems[0].overrideAmount], [1, 20]);
    const pdId = pd.body.perDiems[0].id;
    const pdReplaced = await app.request('PUT', `/api/v1/travel-entries/${e.id}/per-diems/${pdId}`, {
      body: {
        countryCode: 'HR',
        departureTime: '2025-04-14T06:00:00Z',
        arrivalTime: '2025-04-14T20:00:00Z',
        amount: 26.54,
        currencyCode: 'EUR',
      },
    });
    t.same(
      [pdReplaced.body.perDiems[0].overrideAmount, pdReplaced.body.perDiems[0].overrideReason],
      [null, null],
      'override cleared when omitted',
    );
    const alloc = await app.request('POST', `/api/v1/travel-entries/${e.id}/cost-center-allocations`, {
      body: { costCenterId: cc9, share: 100 },
    });
    t.same(alloc.status, 201);
    const removed = await app.request('DELETE', `/api/v1/travel-entries/${e.id}/expenses/${expenseId}`);
    t.same([removed.status, removed.body.expenses.length], [200, 0]);
    const missing = await app.request('DELETE', `/api/v1/travel-entries/${e.id}/expenses/${expenseId}`);
    t.equal(missing.status, 404);
  });

  t.test('without a workflow, submit approves automatically and locks', async (t) => {
    const { body: e } = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { advancePayment: 0 }) });
    const submitted = await app.request('POST', `/api/v1/travel-entries/${e.id}/submit`);
    t.same([submitted.status, submitted.body.status, submitted.body.locked], [200, 'Approved', true], submitted.text);
    const edit = await app.request('POST', `/api/v1/travel-entries/${e.id}/expenses`, {
      body: { date: '2025-04-14', category: 'Taxi', amount: 5, currencyCode: 'EUR' },
    });
    t.same([edit.status, edit.body.code], [409, 'ENTRY_LOCKED']);
    const again = await app.request('POST', `/api/v1/travel-entries/${e.id}/submit`);
    t.same([again.status, again.body.code, again.body.currentStatus], [409, 'INVALID_TRANSITION', 'Approved']);
  });

  t.test('a bodiless POST retried with {} under its Idempotency-Key is the same request', async (t) => {
    // Found from outside (session 14): the body an operation ignores counted in the key's fingerprint.
    const { body: e } = await app.request('POST', '/api/v1/travel-entries', { body: trip(ana, { advancePayment: 0 }) });
    const headers = { 'idempotency-key': `submit-${e.id}` };
    const first = await app.request('POST', `/api/v1/travel-entries/${e.id}/submit`, { headers });
    t.equal(first.status, 200, first.text);
    const retried = await app.request('POST', `/api/v1/travel-entries/${e.id}/submit`, { headers, body: {} });
    t.same([retried.status, retried.headers.get('idempotent-replayed')], [200, 'true'], retried.text);
    t.same(retried.body, first.body);
  });

  t.test('a two-step workflow: eligible approvers only, in order', async (t) => {
    const wf = await app.newTenant();
    const worker = await employee(app, wf.key, 'Worker');
    const lead = await employee(app, wf.key, 'Lead');
    const cfo = await employee(app, wf.key, 'Cfo');
    await setWorkflow(app.rt.handle.db, wf.id, { steps: [{ approverIds: [lead] }, { approverIds: [cfo] }] });
    const { body: e } = await app.request('POST', '/api/v1/travel-entries', { key: wf.key, body: trip(worker, { advancePayment: 0 }) });
    const submitted = await app.request('POST', `/api/v1/travel-entries/${e.id}/submit`, { key: wf.key });
    t.same([submitted.body.status, submitted.body.locked, submitted.body.approval.steps.length], ['PendingApproval', true, 2]);
    const wrong = await app.request('POST', `/api/v1/travel-entries/${e.id}/approve`, { key: wf.key, body: { approverId: cfo } });
    t.same([wrong.status, wrong.body.code], [403, 'NOT_AN_ELIGIBLE_APPROVER']);
    const step1 = await app.request('POST', `/api/v1/travel-entries/${e.id}/approve`, { key: wf.key, body: { approverId: lead } });
    t.same([step1.status, step1.body.status, step1.body.approval.currentStepIndex], [200, 'PendingApproval', 1]);
    const step2 = await app.request('POST', `/api/v1/travel-entries/${e.id}/approve`, {
      key: wf.key,
      body: { approverId: cfo, comment: 'ok' },
    });
    t.same([step2.body.status, step2.body.approval.approvals.length], ['Approved', 2]);
    // The approvers' comments are part of the entry a read key sees (outside try, session 23).
    const comments = (body: any) => body.approval.approvals.map((a: { comment: string | null }) => a.comment);
    t.same(comments(step2.body), [null, 'ok']);
    t.same(
      comments((await app.request('GET', `/api/v1/travel-entries/${e.id}`, { key: wf.key })).body),
      [null, 'ok'],
      'the GET shows them',
    );

    const { body: e2 } = await app.request('POST', '/api/v1/travel-entries', { key: wf.key, body: trip(worker, { advancePayment: 0 }) });
    await app.request('POST', `/api/v1/travel-entries/${e2.id}/submit`, { key: wf.key });
    const back = await app.request('POST', `/api/v1/travel-entries/${e2.id}/request-changes`, {
      key: wf.key,
      body: { approverId: lead, reason: 'receipts' },
    });
    t.same([back.body.status, back.body.locked, back.body.statusReason], ['ChangesRequested', false, 'receipts']);
    const cancelled = await app.request('POST', `/api/v1/travel-entries/${e2.id}/cancel`, {
      key: wf.key,
      body: { reason: 'trip cancelled' },
    });
    t.same([cancelled.body.status, cancelled.body.locked, cancelled.body.statusReason], ['Cancelled', true, 'trip cancelled']);
    const { body: e4 } = await app.request('POST', '/api/v1/travel-entries', { key: wf.key, body: trip(worker, { advancePayment: 0 }) });
    const bare = await app.request('POST', `/api/v1/travel-entries/${e4.id}/cancel`, { key: wf.key });
    t.same([bare.status, bare.body.status, bare.body.statusReason], [200, 'Cancelled', null], 'cancel without a body');

    const { body: e3 } = await app.request('POST', '/api/v1/travel-entries', { key: wf.key, body: trip(worker, { advancePayment: 0 }) });
    await app.request('POST', `/api/v1/travel-entries/${e3.id}/submit`, { key: wf.key });
    const rejected = await app.request('POST', `/api/v1/travel-entries/${e3.id}/reject`, { key: wf.key, body: { approverId: lead } });
    t.same(rejected.body.status, 'Rejected');
  });

  t.test("approver ids stored upper-case still name the step's approvers (no step is skipped)", async (t) => {
    // A workflow written before ids were lower-cased (setWorkflow stores what it is given) kept the
    // case; compared with the lower-case ids of active employees, every step lost its approvers and
    // was skipped, so a submitted entry was approved at once (session 17's review).
    const wf = await app.newTenant();
    const worker = await employee(app, wf.key, 'Worker');
    const lead = await employee(app, wf.key, 'Lead');
    await setWorkflow(app.rt.handle.db, wf.id, { steps: [{ approverIds: [lead.toUpperCase()] }] });
    const { body: e } = await app.request('POST', '/api/v1/travel-entries', { key: wf.key, body: trip(worker, { advancePayment: 0 }) });
    const submitted = await app.request('POST', `/api/v1/travel-entries/${e.id}/submit`, { key: wf.key });
    t.same([submitted.body.status, submitted.body.approval?.steps[0]?.approverIds], ['PendingApproval', [lead]], submitted.text);
    const approved = await app.request('POST', `/api/v1/travel-entries/${e.id}/approve`, { key: wf.key, body: { approverId: lead } });
    t.same([approved.status, approved.body.status], [200, 'Approved'], approved.text);
  });

  t.test('legacy import before 2023 is locked', async (t) => {
    const res = await app.request('POST', '/api/v1/travel-entries/import', {
      body: {
        ...trip(ana, { advancePayment: 0, currencyCode: 'EUR' }),
        entryDate: '2021-03-01',
        departureDate: '2021-03-01',
        returnDate: '2021-03-02',
        entryNumber: 'LEG-2021-7',
        status: 'Approved',
      },
    });
    t.same([res.status, res.body.locked, res.body.entryNumber, res.body.status], [201, true, 'LEG-2021-7', 'Approved'], res.text);
  });

  t.test('list with filters, paging and total; tenant isolation', async (t) => {
    const b = await app.newTenant();
    const bob = await employee(app, b.key, 'Bob');
    for (let i = 0; i < 3; i++) await app.request('POST', '/api/v1/travel-entries', { key: b.key, body: trip(bob, { advancePayment: 0 }) });
    const list = await app.request('GET', '/api/v1/travel-entries?pageSize=2', { key: b.key });
    t.same([list.status, list.body.total, list.body.items.length], [200, 3, 2]);
    const drafts = await app.request('GET', `/api/v1/travel-entries?status=Draft&employeeId=${bob}`, { key: b.key });
    t.equal(drafts.body.total, 3);
    t.equal((await app.request('GET', '/api/v1/travel-entries?status=Done', { key: b.key })).status, 400);
    const mine = (await app.request('GET', '/api/v1/travel-entries?pageSize=1')).body.items[0];
    t.equal((await app.request('GET', `/api/v1/travel-entries/${mine.id}`, { key: b.key })).status, 404);
    t.equal((await app.request('PUT', `/api/v1/travel-entries/${mine.id}`, { key: b.key, body: trip(bob) })).status, 404);
    t.equal((await app.request('POST', `/api/v1/travel-entries/${mine.id}/submit`, { key: b.key })).status, 404);
  });
});
