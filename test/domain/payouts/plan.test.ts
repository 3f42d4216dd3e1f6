// The multi-stream payout flow, planned purely: batch events plus the entry events the shell
// appends to each entry stream.
import t from 'tap';
import { fold } from '../../../src/domain/decider.js';
import {
  entryEventsToSettle,
  isReadyForPayout,
  payoutBatchDecider,
  planPayoutBatchCreation,
  planPayoutBatchDeletion,
  type CreatePayoutBatch,
  type PayoutBatchState,
} from '../../../src/domain/payouts/index.js';
import {
  travelEntryDecider,
  type TravelEntryCommand,
  type TravelEntryEvent,
  type TravelEntryState,
} from '../../../src/domain/travel-entries/index.js';
import { expectDomainError, TEST_NOW, testContext } from '../../helpers/given-when-then.js';
import { draft } from '../travel-entries/fixtures.js';

const ctx = testContext();

function entry(id: string, number: string, then: (id: string) => TravelEntryCommand[]): TravelEntryEvent[] {
  const commands: TravelEntryCommand[] = [
    { type: 'CreateTravelEntry', data: { entryId: id, entryNumber: number, entry: draft() } },
    ...then(id),
  ];
  const events: TravelEntryEvent[] = [];
  for (const c of commands) events.push(...travelEntryDecider.decide(c, fold(travelEntryDecider, events), ctx));
  return events;
}
const autoApproved = (id: string): TravelEntryCommand[] => [{ type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps: [] } }];
const stateOf = (events: TravelEntryEvent[]): TravelEntryState => fold(travelEntryDecider, events);

const entries = new Map<string, TravelEntryState>([
  ['e-1', stateOf(entry('e-1', '2026-00001', autoApproved))],
  ['e-2', stateOf(entry('e-2', '2026-00002', autoApproved))],
  ['e-draft', stateOf(entry('e-draft', '2026-00003', () => []))],
]);

const create = (entryIds: string[]): CreatePayoutBatch => ({
  type: 'CreatePayoutBatch',
  data: { batchId: 'batch-1', entryIds, payoutMethod: 'Payroll', payoutDate: '2026-03-31' },
});
const absent: PayoutBatchState = payoutBatchDecider.initialState();

/** Applies a plan's entry events to the entry states, as the shell's appends would. */
function applied(
  states: Map<string, TravelEntryState>,
  plan: { entryEvents: Array<{ entryId: string; events: TravelEntryEvent[] }> },
): Map<string, TravelEntryState> {
  const next = new Map(states);
  for (const { entryId, events } of plan.entryEvents)
    next.set(entryId, events.reduce(travelEntryDecider.evolve, next.get(entryId) ?? travelEntryDecider.initialState()));
  return next;
}

t.test('ready for payout: approved, not paid out, not import-locked', async (t) => {
  t.ok(isReadyForPayout(entries.get('e-1') ?? travelEntryDecider.initialState()));
  t.notOk(isReadyForPayout(entries.get('e-draft') ?? travelEntryDecider.initialState()));
  t.notOk(isReadyForPayout(travelEntryDecider.initialState()));
});

t.test('creating a batch plans PayoutBatchCreated and TravelEntryPaidOut for each entry', async (t) => {
  const plan = planPayoutBatchCreation(create(['e-1', 'e-2']), absent, entries, ctx);
  t.strictSame(plan.batchEvents, [
    {
      type: 'PayoutBatchCreated',
      data: { batchId: 'batch-1', entryIds: ['e-1', 'e-2'], payoutMethod: 'Payroll', payoutDate: '2026-03-31', at: TEST_NOW },
    },
  ]);
  t.strictSame(
    plan.entryEvents,
    ['e-1', 'e-2'].map((entryId) => ({
      entryId,
      events: [
        {
          type: 'TravelEntryPaidOut',
          data: { entryId, payoutBatchId: 'batch-1', payoutMethod: 'Payroll', payoutDate: '2026-03-31', at: TEST_NOW },
        },
      ],
    })),
  );
  const after = applied(entries, plan);
  t.match(after.get('e-1'), { entry: { isPaidOut: true, locked: true, payoutBatchId: 'batch-1' } });
});

t.test('an entry that cannot be paid rejects the whole batch before anything is written, naming the entry', async (t) => {
  const error = expectDomainError(t, () => planPayoutBatchCreation(create(['e-1', 'e-draft']), absent, entries, ctx), 'INVALID_TRANSITION');
  t.equal(error?.status, 409);
  t.match(error?.message, /^Entry 2026-00003: The entry is Draft/);
  t.match(error?.extra, { entryId: 'e-draft', currentStatus: 'Draft' });
});

t.test('unknown entry ids are 400 keyed by their position', async (t) => {
  const error = expectDomainError(
    t,
    () => planPayoutBatchCreation(create(['e-1', 'nope', 'e-2', 'gone']), absent, entries, ctx),
    'VALIDATION_FAILED',
  );
  t.strictSame(Object.keys(error?.errors ?? {}), ['entryIds[1]', 'entryIds[3]']);
});

t.test('an entry already paid in another batch cannot join a new one', async (t) => {
  const first = planPayoutBatchCreation(create(['e-1']), absent, entries, ctx);
  const after = applied(entries, first);
  const other: CreatePayoutBatch = {
    type: 'CreatePayoutBatch',
    data: { batchId: 'batch-2', entryIds: ['e-1'], payoutMethod: 'Cash', payoutDate: '2026-04-01' },
  };
  // The words of a lost race (a rejected entry's ALREADY_PAID_OUT), naming the batch that holds it.
  const error = expectDomainError(t, () => planPayoutBatchCreation(other, absent, after, ctx), 'ALREADY_PAID_OUT');
  t.equal(error?.message, 'Entry 2026-00001: Already paid out in payout batch batch-1.');
  t.strictSame(error?.extra, { entryId: 'e-1', payoutBatchId: 'batch-1' });
});

t.test('after a crash between appends, settling finishes the missing entries only', async (t) => {
  const plan = planPayoutBatchCreation(create(['e-1', 'e-2']), absent, entries, ctx);
  const batch = plan.batchEvents.reduce(payoutBatchDecider.evolve, absent);
  const half = applied(entries, { entryEvents: plan.entryEvents.slice(0, 1) });
  t.strictSame(
    entryEventsToSettle(batch, half, ctx).map((e) => e.entryId),
    ['e-2'],
  );
  t.strictSame(entryEventsToSettle(batch, applied(entries, plan), ctx), [], 'nothing left once settled');
});

t.test('deleting a batch plans PayoutBatchDeleted and a reversal for each entry it paid', async (t) => {
  const created = planPayoutBatchCreation(create(['e-1', 'e-2']), absent, entries, ctx);
  const batch = created.batchEvents.reduce(payoutBatchDecider.evolve, absent);
  const paid = applied(entries, created);
  const plan = planPayoutBatchDeletion({ type: 'DeletePayoutBatch', data: { batchId: 'batch-1' } }, batch, paid, ctx);
  t.strictSame(plan.batchEvents, [{ type: 'PayoutBatchDeleted', data: { batchId: 'batch-1', reason: null, at: TEST_NOW } }]);
  t.strictSame(
    plan.entryEvents,
    ['e-1', 'e-2'].map((entryId) => ({
      entryId,
      events: [{ type: 'TravelEntryPayoutReversed', data: { entryId, payoutBatchId: 'batch-1', at: TEST_NOW } }],
    })),
  );
  const after = applied(paid, plan);
  t.match(after.get('e-1'), { entry: { status: 'Approved', isPaidOut: false, locked: true } });
  t.ok(isReadyForPayout(after.get('e-1') ?? travelEntryDecider.initialState()), 'back in the payout queue');
});

t.test('deleting a half-created batch reverses only the payouts it made', async (t) => {
  const created = planPayoutBatchCreation(create(['e-1', 'e-2']), absent, entries, ctx);
  const batch = created.batchEvents.reduce(payoutBatchDecider.evolve, absent);
  const half = applied(entries, { entryEvents: created.entryEvents.slice(0, 1) });
  const plan = planPayoutBatchDeletion({ type: 'DeletePayoutBatch', data: { batchId: 'batch-1' } }, batch, half, ctx);
  t.strictSame(
    plan.entryEvents.map((e) => e.entryId),
    ['e-1'],
  );
});

t.test('deleting an unknown or deleted batch fails before any entry is touched', async (t) => {
  expectDomainError(
    t,
    () => planPayoutBatchDeletion({ type: 'DeletePayoutBatch', data: { batchId: 'x' } }, absent, entries, ctx),
    'NOT_FOUND',
  );
});
