// Payouts: the `payoutBatch` streams (the batch process pays entries through their own streams),
// the batch read model and the partner routes. No webhooks of its own: a payout is entry.paidout.
import { payoutBatchesProjection } from '../../projections/payout-batches/projection.js';
import { payoutRoutes, PayoutBatch, PayoutMethod } from '../http/routes/payouts/routes.js';
import type { FeatureModule } from './feature.js';

export const payoutsFeature: FeatureModule = {
  name: 'payouts',
  projections: [payoutBatchesProjection],
  routes: [payoutRoutes],
  schemas: [PayoutMethod, PayoutBatch],
};
