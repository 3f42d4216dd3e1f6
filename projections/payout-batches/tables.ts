// The payout-batch history's table (migration 2026_11_20_0200_read_models): the folded decider
// state next to the columns lists and the resumer look for. Written only by the projection.
import type { ColumnType, Generated } from 'kysely';
import type { PayoutBatchState } from '../../src/domain/payouts/index.js';

export interface RmPayoutBatchesTable {
  id: string;
  tenant_id: string;
  /** `int`: the stream revision the row has folded up to. */
  revision: number;
  /** The process phase: the batch's kind, or Reversing (see projection.ts). */
  status: string;
  created_at: Date;
  edited_at: Date;
  /**
   * `bigint` from the sequence rm_sync_seq, new on every write of the row by the projection (in feed
   * order): incremental sync pages on (sync_seq, id) (migration 2026_11_25_0820_list_cursors).
   */
  sync_seq: Generated<number>;
  /** `jsonb`: the decider state as folded by the version that wrote it (see upgradeState). */
  doc: ColumnType<PayoutBatchState, string, string>;
}
