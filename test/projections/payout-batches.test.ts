// The payout-batches read model replayed: the rows after a rebuild from position zero, done twice, are the
// rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { batchChangedAt, payoutBatchesProjection } from '../../projections/payout-batches/projection.js';
import { replaysToTheSameRows } from '../helpers/projection-replay.js';
import { payoutBatchDecider } from '../../src/domain/payouts/index.js';
import type { PayoutBatchEvent } from '../../src/domain/payouts/events.js';

t.test('payout-batches: replaying its events twice gives the same rows', (t) =>
  replaysToTheSameRows(t, payoutBatchesProjection, (live) => {
    const batches = live.rm_payout_batches!;
    t.equal(batches.length, 4, 'two batches per tenant');
    t.same(batches.map((r) => r.status).sort(), ['Created', 'Created', 'Deleted', 'Deleted'], 'one paid, one reversed per tenant');
  }),
);

t.test("a batch's change time is its latest change: settled after a deletion counts (a review, session 25)", async (t) => {
  // A batch deleted while it was still being paid is settled after the deletion, which changes what
  // the batch shows (its entries): the change time was the deletion's, so an updatedSince sync missed it.
  const at = (s: number) => `2026-11-29T08:00:0${s}.000Z`;
  t.equal(batchChangedAt({ createdAt: at(1), settledAt: null, deletedAt: null }), at(1));
  t.equal(batchChangedAt({ createdAt: at(1), settledAt: at(2), deletedAt: null }), at(2));
  t.equal(batchChangedAt({ createdAt: at(1), settledAt: at(2), deletedAt: at(3) }), at(3));
  t.equal(batchChangedAt({ createdAt: at(1), settledAt: at(3), deletedAt: at(2) }), at(3), 'settled after its deletion');
});

t.test("a deletion's completed reversal is a change of its own (a review, session 26)", async (t) => {
  // A sync that read the batch while its reversal ran saw Reversing; the reversal's completion
  // (Deleted, with the reversed entries) kept the deletion's time, so the next sync never saw it.
  const at = (s: number) => `2026-11-29T08:00:0${s}.000Z`;
  t.equal(batchChangedAt({ createdAt: at(1), settledAt: at(2), deletedAt: at(3), reversedAt: at(4) }), at(4));
  const events: PayoutBatchEvent[] = [
    { type: 'PayoutBatchCreated', data: { batchId: 'b-1', entryIds: ['e-1'], payoutMethod: 'Cash', payoutDate: '2026-11-29', at: at(1) } },
    { type: 'PayoutBatchDeleted', data: { batchId: 'b-1', reason: null, at: at(3) } },
    { type: 'PayoutBatchReversalCompleted', data: { batchId: 'b-1', reversedEntryIds: ['e-1'], at: at(5) } },
  ] as PayoutBatchEvent[];
  const states = events.map((_, i) => events.slice(0, i + 1).reduce(payoutBatchDecider.evolve, payoutBatchDecider.initialState()));
  const changed = states.map((s) => (s.kind === 'Absent' ? null : batchChangedAt(s.batch)));
  t.same(changed, [at(1), at(3), at(5)], 'created, deleted (Reversing), reversal completed (Deleted)');
});
