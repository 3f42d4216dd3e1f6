import t from 'tap';
import { payoutBatchDecider, type PayoutBatchCommand, type PayoutBatchEvent } from '../../../src/domain/payouts/index.js';
import { givenWhenThen, TEST_NOW } from '../../helpers/given-when-then.js';

const scenario = givenWhenThen(payoutBatchDecider);
const EARLIER = '2026-03-15T12:00:00.000Z';

const create = (over: Partial<{ entryIds: string[]; payoutMethod: string; payoutDate: string }> = {}): PayoutBatchCommand => ({
  type: 'CreatePayoutBatch',
  data: { batchId: 'batch-1', entryIds: ['e-1', 'e-2'], payoutMethod: 'BankTransfer', payoutDate: '2026-03-20', ...over },
});
const created: PayoutBatchEvent = {
  type: 'PayoutBatchCreated',
  data: { batchId: 'batch-1', entryIds: ['e-1', 'e-2'], payoutMethod: 'BankTransfer', payoutDate: '2026-03-20', at: EARLIER },
};
const del = (reason?: string): PayoutBatchCommand => ({ type: 'DeletePayoutBatch', data: { batchId: 'batch-1', reason } });

t.test('create records PayoutBatchCreated', async (t) => {
  scenario(t)
    .given([])
    .when(create())
    .then([{ ...created, data: { ...created.data, at: TEST_NOW } }]);
});

t.test('every payout method of the allow-list is accepted', async (t) => {
  for (const payoutMethod of ['BankTransfer', 'Cash', 'Payroll']) {
    t.equal(scenario(t).given([]).when(create({ payoutMethod })).events().length, 1, payoutMethod);
  }
});

t.test('create validation is keyed by field', async (t) => {
  scenario(t)
    .given([])
    .when(create({ entryIds: [], payoutMethod: 'Crypto', payoutDate: '2026-02-30' }))
    .thenThrows('VALIDATION_FAILED', ['entryIds', 'payoutMethod', 'payoutDate']);
  scenario(t)
    .given([])
    .when(create({ entryIds: ['e-1', 'e-2', 'e-1'] }))
    .thenThrows('VALIDATION_FAILED', ['entryIds[2]']);
  scenario(t)
    .given([])
    .when(create({ entryIds: Array.from({ length: 501 }, (_, i) => `e-${i}`) }))
    .thenThrows('VALIDATION_FAILED', ['entryIds']);
});

t.test('create on an existing batch is a conflict', async (t) => {
  scenario(t).given([created]).when(create()).thenThrows('PAYOUT_BATCH_ALREADY_EXISTS');
});

t.test('delete records PayoutBatchDeleted; the batch stays in history as Deleted', async (t) => {
  const s = scenario(t).given([created]).when(del(' Wrong date '));
  s.then([{ type: 'PayoutBatchDeleted', data: { batchId: 'batch-1', reason: 'Wrong date', at: TEST_NOW } }]);
  t.match(s.state(), {
    kind: 'Deleted',
    batch: { id: 'batch-1', entryIds: ['e-1', 'e-2'], createdAt: EARLIER, deletedAt: TEST_NOW, deletionReason: 'Wrong date' },
  });
});

t.test('delete of an unknown batch is 404, of a deleted one 409', async (t) => {
  scenario(t).given([]).when(del()).thenThrows('NOT_FOUND');
  scenario(t)
    .given([created, { type: 'PayoutBatchDeleted', data: { batchId: 'batch-1', reason: null, at: EARLIER } }])
    .when(del())
    .thenThrows('PAYOUT_BATCH_DELETED');
});

t.test('a payout date from 2000-01-01 to a year from today', async (t) => {
  const nextYear = `${Number(TEST_NOW.slice(0, 4)) + 1}${TEST_NOW.slice(4, 10)}`;
  for (const payoutDate of ['1800-01-01', '1999-12-31', `${Number(TEST_NOW.slice(0, 4)) + 2}-01-01`, '9999-12-31']) {
    scenario(t).given([]).when(create({ payoutDate })).thenThrows('VALIDATION_FAILED', ['payoutDate']);
  }
  for (const payoutDate of ['2000-01-01', TEST_NOW.slice(0, 10), nextYear]) {
    t.equal(scenario(t).given([]).when(create({ payoutDate })).events().length, 1, payoutDate);
  }
});
