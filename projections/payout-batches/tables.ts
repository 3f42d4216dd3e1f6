// The payout-batch history's table (migration 2026_11_20_0200_read_models): the folded decider
// state next to the columns lists and the resumer look for. Written only by the projection.
import type { ColumnType } from 'kysely';
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
  /** `jsonb`: the decider state as folded by the version that wrote it (see upgradeState). */
  doc: ColumnType<PayoutBatchState, string, string>;
}
