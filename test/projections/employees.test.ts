// The employees read model replayed: the rows after a rebuild from position zero, done twice, are the
// rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { employeesProjection } from '../../projections/employees/projection.js';
import { replaysToTheSameRows } from '../helpers/projection-replay.js';

t.test('employees: replaying its events twice gives the same rows', (t) =>
  replaysToTheSameRows(t, employeesProjection, (live) => {
    const employees = live.rm_employees!;
    t.equal(employees.length, 4, 'two employees per tenant');
    t.equal(employees.filter((r) => r.is_archived === true).length, 2, 'one archived per tenant');
  }),
);
