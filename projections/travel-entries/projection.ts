// Travel-entries read model (rm_travel_entries), folded with the domain's own evolve; deleted
// entries stay as tombstones. `edited_at` is the row's last change as lists see it: the entry's
// editedAt, or a later export write-back (which leaves editedAt alone but must reach an
// incremental sync); `exports` holds each system's last export status for the list's filter.
// Reads show the current names of an entry's vehicle and cost centers, read beside the rows
// (reference-names.ts): the projection also takes the cost-center and vehicle events, keeps their
// names in rm_entry_reference_names and moves the entries naming a changed one in an incremental
// sync (reference-changes.ts), and announces "every row" so the per-process read cache drops
// entries whose names may have changed.
import {
  TRAVEL_ENTRY_CATEGORY,
  travelEntryDecider,
  type TravelEntry,
  type TravelEntryEvent,
  type TravelEntryState,
} from '../../src/domain/travel-entries/index.js';
import { isReadyForPayout } from '../../src/domain/payouts/index.js';
import { documentProjection } from '../document-projection.js';
import type { Projection } from '../projection.js';
import { categoryOf } from '../../src/eventstore/port.js';
import { COST_CENTER_CATEGORY } from '../../src/domain/cost-centers/index.js';
import { VEHICLE_CATEGORY } from '../../src/domain/vehicles/index.js';
import { applyReferenceEvents } from './reference-changes.js';

type EntryExports = NonNullable<TravelEntry['exports']>;

const lastChangeOf = (editedAt: string, exports: EntryExports): string =>
  Object.values(exports).reduce((last, x) => (Date.parse(x.at) > Date.parse(last) ? x.at : last), editedAt);

const statusBySystem = (exports: EntryExports): Record<string, string> =>
  Object.fromEntries(Object.entries(exports).map(([system, x]) => [system, x.status]));

const entryDocuments = documentProjection<TravelEntryState>({
  name: 'travel-entries',
  category: TRAVEL_ENTRY_CATEGORY,
  table: 'rm_travel_entries',
  initialState: travelEntryDecider.initialState,
  evolve: (s, e) => travelEntryDecider.evolve(s, e as TravelEntryEvent),
  // A deleted entry keeps its row as a tombstone (deleted_at set, edited_at the deletion time).
  columns: (s) =>
    s.kind === 'Absent'
      ? undefined
      : {
          entry_number: s.entry.entryNumber,
          status: s.entry.status,
          employee_id: s.entry.employeeId,
          is_paid_out: s.entry.isPaidOut,
          ready_for_payout: isReadyForPayout(s),
          created_at: s.entry.createdAt,
          edited_at: lastChangeOf(s.entry.editedAt, s.entry.exports ?? {}),
          deleted_at: s.kind === 'Deleted' ? s.deletedAt : null,
          exports: statusBySystem(s.entry.exports ?? {}),
          // The list's ready-to-send text (issue 13) is cleared by every write and made by the first
          // list read after it (list-json-fill.ts): making it here cost a rebuild two thirds of its rate.
          list_json: null,
          list_json_version: null,
        },
});

export const travelEntriesProjection: Projection = {
  name: entryDocuments.name,
  filter: { categories: [TRAVEL_ENTRY_CATEGORY, COST_CENTER_CATEGORY, VEHICLE_CATEGORY] },
  tables: [...entryDocuments.tables, 'rm_entry_reference_names'],
  async apply(trx, events) {
    const own = events.filter((e) => categoryOf(e.streamId) === TRAVEL_ENTRY_CATEGORY);
    const changed = own.length > 0 ? await entryDocuments.apply(trx, own) : [];
    if (own.length === events.length) return changed;
    // A vehicle or cost center created, renamed or deleted: its names as entries show them, and the
    // entries naming it moved in an incremental sync (reference-changes.ts), after their own events
    // of the batch; and any entry the read cache holds may show an old name.
    await applyReferenceEvents(trx, events);
    return undefined;
  },
};
