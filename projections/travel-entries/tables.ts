// The travel-entries read model's table (migrations 2026_11_20_0200_read_models and
// 2026_11_25_0720_travel_entry_tombstones): the folded
// decider state next to the columns lists filter and sort on. Written only by the projection.
import type { ColumnType } from 'kysely';
import type { TravelEntryState } from '../../src/domain/travel-entries/index.js';

export interface RmTravelEntriesTable {
  id: string;
  tenant_id: string;
  /** `int`: the stream revision the row has folded up to. */
  revision: number;
  entry_number: string;
  status: string;
  employee_id: string;
  is_paid_out: boolean;
  ready_for_payout: boolean;
  created_at: Date;
  edited_at: Date;
  /** Set when the entry was deleted (the row is then a tombstone, doc.kind `Deleted`); null otherwise. */
  deleted_at: Date | null;
  /** `jsonb`: the decider state; written as JSON text. */
  doc: ColumnType<TravelEntryState, string, string>;
}
