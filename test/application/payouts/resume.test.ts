// Streams stored by earlier versions converge: a batch that holds only PayoutBatchCreated
// (including the corrupted losers of the old races) is settled from its entry streams by the
// resumer, and an old deletion whose reversal stopped half-way is completed. The read-model
// documents those versions folded (no process fields) are found and upgraded too.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { sql } from 'kysely';
import { resumeUnfinishedPayoutBatches } from '../../../src/application/payouts/resumer.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

async function approvedEntry(app: TestApp, employeeId: string): Promise<string> {
  const e = await app.request('POST', '/api/v1/travel-entries', {
    body: {
      employeeId,
      departureDate: '2025-04-14',
      returnDate: '2025-04-15',
      travelType: 'Domestic',
      currencyCode: 'EUR',
    },
  });
  if (e.status !== 201) throw new Error(e.text);
  const s = await app.request('POST', `/api/v1/travel-entries/${e.body.id}/submit`);
  if (s.body.status !== 'Approved') throw new Error(s.text);
  return e.body.id;
}

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

t.test('legacy payout streams converge without an operator', async (t) => {
  const app = await startTestApp(t);
  const { store, handle } = app.rt;
  const emp = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Old', lastName: 'Streams' } })).body.id;
  const [e1, e2, e3] = [await approvedEntry(app, emp), await approvedEntry(app, emp), await approvedEntry(app, emp)];
  const at = '2026-01-10T10:00:00.000Z';
  const meta = () => ({
    tenantId: app.tenant.id,
    actor: { system: 'earlier-version' },
    correlationId: randomUUID(),
    causationId: randomUUID(),
    occurredAt: at,
  });
  const append = async (streamId: string, events: Array<{ type: string; data: unknown }>) => {
    const head = (await store.readStream(streamId)).length;
    await store.appendToStream(
      streamId,
      events.map((e) => ({ id: randomUUID(), ...e, metadata: meta() })),
      head === 0 ? 'no_stream' : head - 1,
    );
  };
  const created = (batchId: string, entryIds: string[]) => ({
    type: 'PayoutBatchCreated',
    data: { batchId, entryIds, payoutMethod: 'BankTransfer', payoutDate: '2026-01-31', at },
  });
  const paidOut = (entryId: string, payoutBatchId: string) => ({
    type: 'TravelEntryPaidOut',
    data: { entryId, payoutBatchId, payoutMethod: 'BankTransfer', payoutDate: '2026-01-31', at },
  });

  // Half-applied batch: asked for e1 and e2, paid e1, then the process died.
  const half = randomUUID();
  await append(`payoutBatch-${half}`, [created(half, [e1!, e2!])]);
  await append(`travelEntry-${e1}`, [paidOut(e1!, half)]);
  // The old race's loser: listed e1, which the other batch paid.
  const loser = randomUUID();
  await append(`payoutBatch-${loser}`, [created(loser, [e1!])]);
  // An old deletion that died before reversing its entry.
  const gone = randomUUID();
  await append(`payoutBatch-${gone}`, [created(gone, [e3!])]);
  await append(`travelEntry-${e3}`, [paidOut(e3!, gone)]);
  await append(`payoutBatch-${gone}`, [{ type: 'PayoutBatchDeleted', data: { batchId: gone, reason: null, at } }]);

  const row = (id: string) => app.request('GET', `/api/v1/payouts/batches/${id}`);
  for (const id of [half, loser, gone])
    await until(
      `batch ${id} projected`,
      () => row(id),
      (r) => r.status === 200,
    );
  // The read model as an earlier version folded it: no process fields, status column 'Created'.
  await sql`update rm_payout_batches set status = 'Created',
    doc = jsonb_build_object('kind', 'Created', 'batch', (doc->'batch') - 'takenEntryIds' - 'rejectedEntries' - 'settledAt' - 'reversedEntryIds')
    where id = ${half}::uuid`.execute(handle.db);
  t.match(
    (await row(half)).body,
    { status: 'Processing', entryIds: [], requestedEntryIds: [e1, e2] },
    'an old document reads as an unfinished request',
  );

  const logger = pino({ level: 'silent' });
  // The app's own background resumer may get to some of them first: either way they converge,
  // which the assertions below check.
  await resumeUnfinishedPayoutBatches(handle.db, store, logger, 0);

  const settled = await until(
    'settled',
    () => row(half),
    (r) => r.body.status !== 'Processing',
  );
  t.match(settled.body, {
    status: 'Created',
    entryIds: [e1],
    requestedEntryIds: [e1, e2],
    rejectedEntries: [{ entryId: e2, code: 'NOT_REACHED' }],
  });
  const rejected = await until(
    'rejected',
    () => row(loser),
    (r) => r.body.status !== 'Processing',
  );
  t.match(rejected.body, {
    status: 'Rejected',
    entryIds: [],
    rejectedEntries: [{ entryId: e1, code: 'ALREADY_PAID_OUT', payoutBatchId: half }],
  });
  t.equal((await app.request('GET', `/api/v1/travel-entries/${e3}`)).body.isPaidOut, false, 'the old deletion finished its reversal');

  t.equal(
    await until(
      'caught up',
      () => resumeUnfinishedPayoutBatches(handle.db, store, logger, 0),
      (n) => n === 0,
    ),
    0,
    'nothing is left to resume',
  );
  t.equal(
    (await app.request('POST', '/api/v1/payouts/batches', { body: { entryIds: [e1], payoutMethod: 'Cash', payoutDate: '2026-02-01' } }))
      .status,
    409,
    'the entry its batch holds stays held',
  );
  const next = await app.request('POST', '/api/v1/payouts/batches', {
    body: { entryIds: [e2, e3], payoutMethod: 'Cash', payoutDate: '2026-02-01' },
  });
  t.equal(next.status, 201, 'the entries no batch holds can be paid');
});

t.test('an entry paid in a settled batch that does not hold it is released (reconciliation)', async (t) => {
  const app = await startTestApp(t);
  const { store, handle } = app.rt;
  const emp = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Stray', lastName: 'Entry' } })).body.id;
  const [e1, e2] = [await approvedEntry(app, emp), await approvedEntry(app, emp)];
  const at = '2026-01-10T10:00:00.000Z';
  const meta = () => ({
    tenantId: app.tenant.id,
    actor: { system: 'test' },
    correlationId: randomUUID(),
    causationId: randomUUID(),
    occurredAt: at,
  });
  const append = async (streamId: string, events: Array<{ type: string; data: unknown }>) => {
    const head = (await store.readStream(streamId)).length;
    await store.appendToStream(
      streamId,
      events.map((e) => ({ id: randomUUID(), ...e, metadata: meta() })),
      head === 0 ? 'no_stream' : head - 1,
    );
  };
  const paidOut = (entryId: string, payoutBatchId: string) => ({
    type: 'TravelEntryPaidOut',
    data: { entryId, payoutBatchId, payoutMethod: 'BankTransfer', payoutDate: '2026-01-31', at },
  });
  const b = randomUUID();
  await append(`travelEntry-${e1}`, [paidOut(e1!, b)]);
  await append(`payoutBatch-${b}`, [
    { type: 'PayoutBatchCreated', data: { batchId: b, entryIds: [e1, e2], payoutMethod: 'BankTransfer', payoutDate: '2026-01-31', at } },
    {
      type: 'PayoutBatchSettled',
      data: {
        batchId: b,
        takenEntryIds: [e1],
        rejectedEntries: [{ entryId: e2, code: 'NOT_REACHED', reason: 'x' }],
        at: new Date().toISOString(),
      },
    },
  ]);
  // The stalled request pays e2 after the settlement, then dies before compensating.
  await append(`travelEntry-${e2}`, [paidOut(e2!, b)]);
  await until(
    'projected',
    () => app.request('GET', `/api/v1/travel-entries/${e2}`),
    (r) => r.body.isPaidOut === true,
  );
  await until(
    'batch projected',
    () => app.request('GET', `/api/v1/payouts/batches/${b}`),
    (r) => r.body.status === 'Created',
  );

  await resumeUnfinishedPayoutBatches(handle.db, store, pino({ level: 'silent' }), 0);
  const e2Now = await until(
    'released',
    () => app.request('GET', `/api/v1/travel-entries/${e2}`),
    (r) => r.body.isPaidOut === false,
  );
  t.match(e2Now.body, { isPaidOut: false, status: 'Approved' }, 'the stray entry is payable again');
  t.match(
    (await app.request('GET', `/api/v1/travel-entries/${e1}`)).body,
    { isPaidOut: true, payoutBatchId: b },
    'the entry the batch holds stays paid',
  );
  t.match((await app.request('GET', `/api/v1/payouts/batches/${b}`)).body, { status: 'Created', entryIds: [e1] });
});
