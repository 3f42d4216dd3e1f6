// Travel-entries read model (rm_travel_entries), folded with the domain's own evolve; deleted
// entries stay as tombstones.
import { travelEntryDecider, type TravelEntryEvent, type TravelEntryState } from '../../src/domain/travel-entries/index.js';
import { isReadyForPayout } from '../../src/domain/payouts/index.js';
import { documentProjection } from '../document-projection.js';

export const travelEntriesProjection = documentProjection<TravelEntryState>({
  name: 'travel-entries',
  category: 'travelEntry',
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
          edited_at: s.entry.editedAt,
          deleted_at: s.kind === 'Deleted' ? s.deletedAt : null,
        },
});
