// Cost centers: the `costCenter` streams, their read model and the partner routes. No webhooks (the
// catalog is complete for a release).
import { costCentersProjection } from '../../projections/cost-centers/projection.js';
import { costCenterRoutes } from '../http/routes/cost-centers/routes.js';
import { CostCenter, CostCenterBody, OrganizationTombstone } from '../http/routes/cost-centers/schemas.js';
import type { FeatureModule } from './feature.js';

export const costCentersFeature: FeatureModule = {
  name: 'cost-centers',
  projections: [costCentersProjection],
  routes: [costCenterRoutes],
  schemas: [CostCenter, CostCenterBody, OrganizationTombstone],
};
