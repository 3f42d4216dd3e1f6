// Vehicles: the `vehicle` streams, their read model and the partner routes. No webhooks (the catalog
// is complete for a release).
import { vehiclesProjection } from '../../projections/vehicles/projection.js';
import { vehicleRoutes } from '../http/routes/vehicles/routes.js';
import { Vehicle, VehicleBody } from '../http/routes/vehicles/schemas.js';
import type { FeatureModule } from './feature.js';

export const vehiclesFeature: FeatureModule = {
  name: 'vehicles',
  projections: [vehiclesProjection],
  routes: [vehicleRoutes],
  schemas: [Vehicle, VehicleBody],
};
