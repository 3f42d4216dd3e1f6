// The vehicles read model replayed: the rows after a rebuild from position zero, done twice, are the
// rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { vehiclesProjection } from '../../projections/vehicles/projection.js';
import { replaysToTheSameRows } from '../helpers/projection-replay.js';

t.test('vehicles: replaying their events twice gives the same rows', (t) =>
  replaysToTheSameRows(t, vehiclesProjection, (live) => {
    const rows = live.rm_vehicles!;
    t.equal(rows.length, 4, 'two vehicles per tenant');
    t.equal(rows.filter((r) => r.employee_id !== null).length, 2, 'one private vehicle with its owner per tenant');
  }),
);
