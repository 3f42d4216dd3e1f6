// The payout-batches read model replayed: the rows after a rebuild from position zero, done twice, are the
// rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { payoutBatchesProjection } from '../../projections/payout-batches/projection.js';
import { replaysToTheSameRows } from '../helpers/projection-replay.js';

t.test('payout-batches: replaying its events twice gives the same rows', (t) =>
  replaysToTheSameRows(t, payoutBatchesProjection, (live) => {
    const batches = live.rm_payout_batches!;
    t.equal(batches.length, 4, 'two batches per tenant');
    t.same(batches.map((r) => r.status).sort(), ['Created', 'Created', 'Deleted', 'Deleted'], 'one paid, one reversed per tenant');
  }),
);
