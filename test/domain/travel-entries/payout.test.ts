import t from 'tap';
import { TEST_NOW } from '../../helpers/given-when-then.js';
import { ENTRY_ID, entryOf, payOut, reversePayout, scenario, states } from './fixtures.js';

t.test('an approved entry is paid out: isPaidOut, paidOutAt, locked', async (t) => {
  const approved = states.Approved();
  const s = scenario(t).given(approved).when(payOut('batch-7'));
  s.then([
    {
      type: 'TravelEntryPaidOut',
      data: { entryId: ENTRY_ID, payoutBatchId: 'batch-7', payoutMethod: 'BankTransfer', payoutDate: '2026-03-20', at: TEST_NOW },
    },
  ]);
  t.match(s.state(), {
    entry: { status: 'Approved', isPaidOut: true, paidOutAt: TEST_NOW, payoutBatchId: 'batch-7', payoutDate: '2026-03-20', locked: true },
  });
});

t.test('paying out again in the same batch records nothing (safe retry); another batch is refused', async (t) => {
  const paid = states.PaidOut();
  scenario(t).given(paid).when(payOut('batch-1')).then([]);
  const error = scenario(t).given(paid).when(payOut('batch-2')).thenThrows('INVALID_TRANSITION');
  t.match(error.message, /Approved \(paid out\)/);
});

t.test('payout input is validated', async (t) => {
  scenario(t)
    .given(states.Approved())
    .when({
      type: 'MarkTravelEntryPaidOut',
      data: { entryId: ENTRY_ID, payoutBatchId: 'b', payoutMethod: 'Bitcoin', payoutDate: '20.3.2026' },
    })
    .thenThrows('VALIDATION_FAILED', ['payoutMethod', 'payoutDate']);
});

t.test('a reversal makes the entry Approved and unpaid again; it stays locked (Approved is closed)', async (t) => {
  const s = scenario(t).given(states.PaidOut()).when(reversePayout('batch-1'));
  s.then([{ type: 'TravelEntryPayoutReversed', data: { entryId: ENTRY_ID, payoutBatchId: 'batch-1', at: TEST_NOW } }]);
  t.match(s.state(), {
    entry: {
      status: 'Approved',
      isPaidOut: false,
      paidOutAt: null,
      payoutBatchId: null,
      locked: true,
      reversedPayoutBatchIds: ['batch-1'],
    },
  });
});

t.test('a reversed entry can be paid in a new batch; repeating the reversal records nothing', async (t) => {
  const reversed = states.PaidOut().concat(scenario(t).given(states.PaidOut()).when(reversePayout('batch-1')).events());
  scenario(t).given(reversed).when(reversePayout('batch-1')).then([]);
  t.equal(scenario(t).given(reversed).when(payOut('batch-2')).events().length, 1);
  t.equal(entryOf(reversed).isPaidOut, false);
});

t.test('reversing another batch than the one that paid is a conflict; an unpaid entry has nothing to reverse', async (t) => {
  scenario(t).given(states.PaidOut()).when(reversePayout('batch-9')).thenThrows('PAYOUT_BATCH_MISMATCH');
  scenario(t).given(states.Approved()).when(reversePayout('batch-1')).thenThrows('INVALID_TRANSITION');
});

t.test('a paid-out entry cannot be cancelled; an approved unpaid one can', async (t) => {
  scenario(t)
    .given(states.PaidOut())
    .when({ type: 'CancelTravelEntry', data: { entryId: ENTRY_ID } })
    .thenThrows('INVALID_TRANSITION');
  t.match(
    scenario(t)
      .given(states.Approved())
      .when({ type: 'CancelTravelEntry', data: { entryId: ENTRY_ID } })
      .events(),
    [{ type: 'TravelEntryCancelled', data: { previousStatus: 'Approved' } }],
  );
});
