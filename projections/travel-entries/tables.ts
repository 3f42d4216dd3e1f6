// The travel-entries read model's table (migrations 2026_11_20_0200_read_models,
// 2026_11_25_0720_travel_entry_tombstones, 2026_11_25_0820_list_cursors and
// 2026_11_26_0500_travel_entry_list_json, 2026_11_29_0200_travel_entry_list_json_version): the folded decider state next to the columns lists
// filter and sort on. Written only by the projection.
import type { ColumnType, Generated } from 'kysely';
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
  /**
   * `bigint` from the sequence rm_sync_seq, new on every write of the row by the projection (in feed
   * order): incremental sync pages on (sync_seq, id) (migration 2026_11_25_0820_list_cursors).
   */
  sync_seq: Generated<number>;
  /** Set when the entry was deleted (the row is then a tombstone, doc.kind `Deleted`); null otherwise. */
  deleted_at: Date | null;
  /** `jsonb`: the last export status per system (`{ "sap-fi": "posted" }`), for the exportedTo filter. */
  exports: ColumnType<Record<string, string>, string | undefined, string>;
  /**
   * The row as the list sends it, JSON text with slots for the reference names (list-json.ts);
   * null after every projection write of the row until the next list read stores it
   * (list-json-fill.ts), and on rows written before migration 2026_11_26_0500_travel_entry_list_json.
   */
  list_json: string | null;
  /**
   * The LIST_TEXT_VERSION the text was made by (list-json.ts); null with the text, and on texts
   * stored before migration 2026_11_29_0200. A read uses a text only of its own version.
   */
  list_json_version: number | null;
  /** `jsonb`: the decider state; written as JSON text. */
  doc: ColumnType<TravelEntryState, string, string>;
}

/**
 * The code and names an entry shows for a vehicle (`code` the registration number, `name` the make)
 * or a cost center (`code`, `name`) of the tenant (migration 2026_11_29_0300_entry_reference_names).
 * Written by the travel-entries projection from the vehicles' and cost centers' events, in the
 * transaction that moves the entries naming a changed one (reference-changes.ts).
 */
export interface RmEntryReferenceNamesTable {
  tenant_id: string;
  kind: 'vehicle' | 'costCenter';
  id: string;
  code: string;
  name: string | null;
  model: string | null;
}
