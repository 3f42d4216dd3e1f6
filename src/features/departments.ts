// Departments: the `department` streams, their read model and the partner routes. No webhooks (the
// catalog is complete for a release; a department change does not change an employee's summary).
import { departmentsProjection } from '../../projections/departments/projection.js';
import { departmentRoutes } from '../http/routes/departments/routes.js';
import { Department, DepartmentBody } from '../http/routes/departments/schemas.js';
import type { FeatureModule } from './feature.js';

export const departmentsFeature: FeatureModule = {
  name: 'departments',
  projections: [departmentsProjection],
  routes: [departmentRoutes],
  schemas: [Department, DepartmentBody],
};
