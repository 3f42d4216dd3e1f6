// The departments read model replayed: the rows after a rebuild from position zero, done twice, are
// the rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { departmentsProjection } from '../../projections/departments/projection.js';
import { replaysToTheSameRows } from '../helpers/projection-replay.js';

t.test('departments: replaying their events twice gives the same rows', (t) =>
  replaysToTheSameRows(t, departmentsProjection, (live) => {
    const rows = live.rm_departments!;
    t.equal(rows.length, 4, 'two departments per tenant');
    t.equal(rows.filter((r) => r.is_deleted === true).length, 2, 'one deleted per tenant (a tombstone row)');
    t.equal(rows.filter((r) => r.default_cost_center_id !== null).length, 2, 'one with a default cost center per tenant');
  }),
);
