// Every step of the payout processes, purely: settling (taken / rejected with reasons), deleting
// a batch at any phase, completing the reversal, compensation, and how streams and read-model
// documents of earlier versions (only PayoutBatchCreated) are read.
import t from 'tap';
import { fold } from '../../../src/domain/decider.js';
import {
  entriesToCompensate,
  isReversalPending,
  isUnsettled,
  payoutBatchDecider,
  rejectionOf,
  settlementFor,
  upgradeState,
  type PayoutBatchCommand,
  type PayoutBatchEvent,
  type PayoutBatchState,
} from '../../../src/domain/payouts/index.js';
import { DomainError } from '../../../src/domain/errors.js';
import {
  travelEntryDecider,
  type TravelEntryCommand,
  type TravelEntryEvent,
  type TravelEntryState,
} from '../../../src/domain/travel-entries/index.js';
import { givenWhenThen, TEST_NOW, testContext } from '../../helpers/given-when-then.js';
import { draft } from '../travel-entries/fixtures.js';

const scenario = givenWhenThen(payoutBatchDecider);
const ctx = testContext();
const EARLIER = '2026-03-15T12:00:00.000Z';

const created: PayoutBatchEvent = {
  type: 'PayoutBatchCreated',
  data: { batchId: 'batch-1', entryIds: ['e-1', 'e-2', 'e-3'], payoutMethod: 'BankTransfer', payoutDate: '2026-03-20', at: EARLIER },
};
const settle = (takenEntryIds: string[], rejected: string[]): PayoutBatchCommand => ({
  type: 'SettlePayoutBatch',
  data: {
    batchId: 'batch-1',
    takenEntryIds,
    rejectedEntries: rejected.map((entryId) => ({
      entryId,
      code: 'ALREADY_PAID_OUT',
      reason: 'Already paid out in payout batch b-9.',
      payoutBatchId: 'b-9',
    })),
  },
});
const settled = (taken: string[], rejected: string[]): PayoutBatchEvent =>
  scenario(t).given([created]).when(settle(taken, rejected)).events()[0]!;
const deleted: PayoutBatchEvent = { type: 'PayoutBatchDeleted', data: { batchId: 'batch-1', reason: null, at: EARLIER } };

function entry(id: string, then: TravelEntryCommand[]): TravelEntryState {
  const commands: TravelEntryCommand[] = [
    { type: 'CreateTravelEntry', data: { entryId: id, entryNumber: `2026-0000${id.length}`, entry: draft() } },
    ...then,
  ];
  const events: TravelEntryEvent[] = [];
  for (const c of commands) events.push(...travelEntryDecider.decide(c, fold(travelEntryDecider, events), ctx));
  return fold(travelEntryDecider, events);
}
const approved = (id: string) => entry(id, [{ type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps: [] } }]);
const paidIn = (id: string, batch: string) =>
  entry(id, [
    { type: 'SubmitTravelEntry', data: { entryId: id, workflowSteps: [] } },
    { type: 'MarkTravelEntryPaidOut', data: { entryId: id, payoutBatchId: batch, payoutMethod: 'Cash', payoutDate: '2026-03-20' } },
  ]);

t.test('a requested batch is Processing until it settles', async (t) => {
  const s = fold(payoutBatchDecider, [created]);
  t.equal(s.kind, 'Processing');
  t.ok(isUnsettled(s));
  t.match(s, { batch: { entryIds: ['e-1', 'e-2', 'e-3'], takenEntryIds: null, settledAt: null } });
});

t.test('settling records the taken and rejected entries, in requested order; the batch is Created', async (t) => {
  const s = scenario(t)
    .given([created])
    .when(settle(['e-3', 'e-1'], ['e-2']));
  s.then([
    {
      type: 'PayoutBatchSettled',
      data: {
        batchId: 'batch-1',
        takenEntryIds: ['e-1', 'e-3'],
        rejectedEntries: [
          { entryId: 'e-2', code: 'ALREADY_PAID_OUT', reason: 'Already paid out in payout batch b-9.', payoutBatchId: 'b-9' },
        ],
        at: TEST_NOW,
      },
    },
  ]);
  t.match(s.state(), { kind: 'Created', batch: { takenEntryIds: ['e-1', 'e-3'], settledAt: TEST_NOW } });
});

t.test('a batch that took nothing is Rejected and cannot be deleted', async (t) => {
  const ev = settled([], ['e-1', 'e-2', 'e-3']);
  t.equal(fold(payoutBatchDecider, [created, ev]).kind, 'Rejected');
  scenario(t)
    .given([created, ev])
    .when({ type: 'DeletePayoutBatch', data: { batchId: 'batch-1' } })
    .thenThrows('PAYOUT_BATCH_REJECTED');
});

t.test('the first settlement wins: settling again records nothing (a second resumer is harmless)', async (t) => {
  scenario(t)
    .given([created, settled(['e-1'], ['e-2', 'e-3'])])
    .when(settle(['e-1', 'e-2', 'e-3'], []))
    .then([]);
});

t.test('a settlement must name each requested entry exactly once', async (t) => {
  scenario(t)
    .given([created])
    .when(settle(['e-1'], ['e-2']))
    .thenThrows('PAYOUT_BATCH_SETTLEMENT_MISMATCH');
  scenario(t)
    .given([created])
    .when(settle(['e-1', 'e-1'], ['e-2', 'e-3']))
    .thenThrows('PAYOUT_BATCH_SETTLEMENT_MISMATCH');
  scenario(t)
    .given([created])
    .when(settle(['e-1', 'e-2', 'e-9'], []))
    .thenThrows('PAYOUT_BATCH_SETTLEMENT_MISMATCH');
  scenario(t).given([]).when(settle([], [])).thenThrows('NOT_FOUND');
});

t.test('deleting starts the reversal; completing it records the entries released, once', async (t) => {
  const history = [created, settled(['e-1', 'e-2'], ['e-3'])];
  const s = scenario(t)
    .given(history)
    .when({ type: 'DeletePayoutBatch', data: { batchId: 'batch-1', reason: 'wrong' } });
  t.ok(isReversalPending(s.state()));
  const done = scenario(t)
    .given([...history, ...s.events()])
    .when({ type: 'CompletePayoutBatchReversal', data: { batchId: 'batch-1', reversedEntryIds: ['e-1', 'e-2'] } });
  done.then([{ type: 'PayoutBatchReversalCompleted', data: { batchId: 'batch-1', reversedEntryIds: ['e-1', 'e-2'], at: TEST_NOW } }]);
  t.notOk(isReversalPending(done.state()));
  scenario(t)
    .given([...history, ...s.events(), ...done.events()])
    .when({ type: 'CompletePayoutBatchReversal', data: { batchId: 'batch-1', reversedEntryIds: [] } })
    .then([]);
  scenario(t)
    .given(history)
    .when({ type: 'CompletePayoutBatchReversal', data: { batchId: 'batch-1', reversedEntryIds: [] } })
    .then([], 'nothing to complete on a live batch');
});

t.test('a batch deleted while processing cannot be settled any more', async (t) => {
  scenario(t)
    .given([created, deleted])
    .when(settle(['e-1'], ['e-2', 'e-3']))
    .then([]);
});

t.test('outcomes come from the entry streams: taken when paid in this batch, otherwise the real reason', async (t) => {
  const batch = fold(payoutBatchDecider, [created]);
  const entries = new Map<string, TravelEntryState | undefined>([
    ['e-1', paidIn('e-1', 'batch-1')],
    ['e-2', paidIn('e-2', 'b-9')],
    ['e-3', approved('e-3')],
  ]);
  const cmd = settlementFor(batch, entries)!;
  t.strictSame(cmd.data.takenEntryIds, ['e-1']);
  t.strictSame(cmd.data.rejectedEntries, [
    { entryId: 'e-2', code: 'ALREADY_PAID_OUT', reason: 'Already paid out in payout batch b-9.', payoutBatchId: 'b-9' },
    {
      entryId: 'e-3',
      code: 'NOT_REACHED',
      reason: 'The batch process stopped before it paid this entry out; the entry was not paid in this batch.',
    },
  ]);
  const seen = new Map([['e-3', { entryId: 'e-3', code: 'INVALID_TRANSITION', reason: 'Refused.' }]]);
  t.match(settlementFor(batch, entries, seen)!.data.rejectedEntries[1], { code: 'INVALID_TRANSITION' }, 'a reason the process saw is kept');
});

t.test('an entry that exists is never reported as unknown', async (t) => {
  t.match(rejectionOf('e-2', paidIn('e-2', 'b-9'), 'batch-1', new DomainError('NOT_FOUND', 'No such travel entry.')), {
    code: 'ALREADY_PAID_OUT',
  });
  t.match(rejectionOf('e-3', approved('e-3'), 'batch-1', new DomainError('INVALID_TRANSITION', 'x')), { code: 'INVALID_TRANSITION' });
  t.match(rejectionOf('zz', travelEntryDecider.initialState(), 'batch-1'), { code: 'NOT_FOUND', reason: 'No such travel entry.' });
});

t.test('compensation: what a process paid that the recorded batch does not hold', async (t) => {
  const processing = fold(payoutBatchDecider, [created]);
  t.strictSame(entriesToCompensate(processing, ['e-1']), [], 'nothing while the batch is still processing');
  t.strictSame(entriesToCompensate(fold(payoutBatchDecider, [created, settled(['e-1'], ['e-2', 'e-3'])]), ['e-1', 'e-2']), ['e-2']);
  t.strictSame(entriesToCompensate(fold(payoutBatchDecider, [created, settled([], ['e-1', 'e-2', 'e-3'])]), ['e-1']), ['e-1']);
  t.strictSame(entriesToCompensate(fold(payoutBatchDecider, [created, deleted]), ['e-1']), ['e-1']);
});

t.test('legacy: a stream of an earlier version (only PayoutBatchCreated) reads as a request and settles from its entries', async (t) => {
  const legacy = fold(payoutBatchDecider, [created]);
  t.ok(isUnsettled(legacy));
  // The corrupted loser of the old 8-way race: lists e-2, which another batch paid.
  const cmd = settlementFor(
    legacy,
    new Map([
      ['e-1', paidIn('e-1', 'batch-1')],
      ['e-2', paidIn('e-2', 'b-9')],
      ['e-3', approved('e-3')],
    ]),
  )!;
  const after = scenario(t).given([created]).when(cmd).state();
  t.match(after, { kind: 'Created', batch: { takenEntryIds: ['e-1'], rejectedEntries: [{ entryId: 'e-2' }, { entryId: 'e-3' }] } });
  const loser = settlementFor(
    legacy,
    new Map([
      ['e-1', approved('e-1')],
      ['e-2', paidIn('e-2', 'b-9')],
      ['e-3', approved('e-3')],
    ]),
  )!;
  t.equal(scenario(t).given([created]).when(loser).state().kind, 'Rejected', 'a legacy batch that paid nothing ends Rejected');
});

t.test('legacy read-model documents (no process fields) are upgraded', async (t) => {
  const oldCreated = {
    kind: 'Created',
    batch: {
      id: 'batch-1',
      entryIds: ['e-1'],
      payoutMethod: 'Cash',
      payoutDate: '2026-03-20',
      createdAt: EARLIER,
      deletedAt: null,
      deletionReason: null,
    },
  } as unknown as PayoutBatchState;
  t.match(upgradeState(oldCreated), {
    kind: 'Processing',
    batch: { takenEntryIds: null, rejectedEntries: [], settledAt: null, reversedEntryIds: null },
  });
  const oldDeleted = { ...oldCreated, kind: 'Deleted' } as unknown as PayoutBatchState;
  t.ok(isReversalPending(upgradeState(oldDeleted)), 'an old deletion has its reversal confirmed by the resumer');
  const next = payoutBatchDecider.evolve(oldCreated, {
    type: 'PayoutBatchSettled',
    data: { batchId: 'batch-1', takenEntryIds: ['e-1'], rejectedEntries: [], at: TEST_NOW },
  });
  t.match(next, { kind: 'Created', batch: { takenEntryIds: ['e-1'] } });
});
