// The event feed's read model replayed: a rebuild from position zero, done twice, gives the rows the
// live projection wrote, the envelope bytes and store positions (hence every cursor) included.
import t from 'tap';
import { features } from '../../src/features/index.js';
import { EVENT_FEED_PROJECTION } from '../../projections/event-feed/projection.js';
import { replaysToTheSameRows } from '../helpers/projection-replay.js';

const projection = features.flatMap((f) => f.projections ?? []).find((p) => p.name === EVENT_FEED_PROJECTION)!;

t.test('event-feed: replaying its events twice gives the same rows', (t) =>
  replaysToTheSameRows(t, projection, (live) => {
    const feed = live.rm_event_feed!;
    const types = feed.map((r) => r.type as string);
    t.ok(feed.length >= 20, `one row per catalog event (${feed.length})`);
    t.ok(types.includes('employee.created') && types.includes('employee.updated'), 'employee events');
    t.ok(types.includes('entry.created') && types.includes('entry.updated') && types.includes('entry.paidout'), 'entry events');
    t.ok(
      feed.every((r) => JSON.parse(r.payload as string).id === `evt_${(r.event_guid as string).replaceAll('-', '')}`),
      'each payload is the envelope of its event',
    );
    t.ok(live.rm_event_feed_streams!.length > 0, 'the folds of the catalog streams');
  }),
);
