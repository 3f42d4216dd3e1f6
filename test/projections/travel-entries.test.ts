// The travel-entries read model replayed: the rows after a rebuild from position zero, done twice, are the
// rows the live projection wrote (see test/helpers/projection-replay.ts).
import t from 'tap';
import { travelEntriesProjection } from '../../projections/travel-entries/projection.js';
import { replaysToTheSameRows } from '../helpers/projection-replay.js';

t.test('travel-entries: replaying its events twice gives the same rows', (t) =>
  replaysToTheSameRows(t, travelEntriesProjection, (live) => {
    const entries = live.rm_travel_entries!;
    t.equal(entries.length, 6, 'three entries per tenant');
    t.same(
      entries.map((r) => r.status).sort(),
      ['Approved', 'Approved', 'Approved', 'Approved', 'Draft', 'Draft'],
      'paid, reversed (approved again) and a draft per tenant',
    );
  }),
);
