// Payout-batch history (rm_payout_batches), folded with the domain's own evolve.
import { payoutBatchDecider, type PayoutBatchState } from '../../src/domain/payouts/index.js';
import type { PayoutBatchEvent } from '../../src/domain/payouts/events.js';
import { documentProjection } from '../document-projection.js';

export const payoutBatchesProjection = documentProjection<PayoutBatchState>({
  name: 'payout-batches',
  category: 'payoutBatch',
  table: 'rm_payout_batches',
  initialState: payoutBatchDecider.initialState,
  evolve: (s, e) => payoutBatchDecider.evolve(s, e as PayoutBatchEvent),
  columns: (s) => s.kind === 'Absent'
    ? undefined
    : { status: s.kind, created_at: s.batch.createdAt, edited_at: s.batch.deletedAt ?? s.batch.createdAt },
});
