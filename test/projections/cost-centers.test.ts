// The cost-centers read model replayed: the rows after a rebuild from position zero, done twice, are
// the rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { costCentersProjection } from '../../projections/cost-centers/projection.js';
import { replaysToTheSameRows } from '../helpers/projection-replay.js';

t.test('cost centers: replaying their events twice gives the same rows', (t) =>
  replaysToTheSameRows(t, costCentersProjection, (live) => {
    const rows = live.rm_cost_centers!;
    t.equal(rows.length, 4, 'two cost centers per tenant');
    t.equal(rows.filter((r) => r.is_archived === true).length, 2, 'one archived per tenant');
  }),
);
