// Payout-batch history (rm_payout_batches), folded with the domain's own evolve. The `status`
// column is the process phase the resumer looks for: Processing (not settled) and Reversing
// (deleted, reversal not completed) besides the statuses the API shows.
import { isReversalPending, payoutBatchDecider, upgradeState, type PayoutBatchState } from '../../src/domain/payouts/index.js';
import type { PayoutBatchEvent } from '../../src/domain/payouts/events.js';
import { documentProjection } from '../document-projection.js';

/**
 * The latest change a reader sees, what an incremental sync (updatedSince) compares: a batch deleted
 * while it was still being paid is settled after its deletion, and a deletion's reversal completes
 * after it (Reversing, then Deleted with the reversed entries: a review, session 26).
 */
export function batchChangedAt(batch: {
  createdAt: string;
  settledAt: string | null;
  deletedAt: string | null;
  reversedAt?: string | undefined;
}): string {
  return [batch.settledAt, batch.deletedAt, batch.reversedAt ?? null].reduce<string>(
    (last, t) => (t !== null && Date.parse(t) > Date.parse(last) ? t : last),
    batch.createdAt,
  );
}

export const payoutBatchesProjection = documentProjection<PayoutBatchState>({
  name: 'payout-batches',
  category: 'payoutBatch',
  table: 'rm_payout_batches',
  initialState: payoutBatchDecider.initialState,
  // Rows folded by earlier versions are upgraded on their next event (see upgradeState).
  evolve: (s, e) => payoutBatchDecider.evolve(upgradeState(s), e as PayoutBatchEvent),
  columns: (s) =>
    s.kind === 'Absent'
      ? undefined
      : {
          status: isReversalPending(s) ? 'Reversing' : s.kind,
          created_at: s.batch.createdAt,
          edited_at: batchChangedAt(s.batch),
        },
});
