// Employees: the `employee` streams, their read model, the partner routes and the employee.*
// webhooks: registration is employee.created, every later record (update, archive) is
// employee.updated.
import {
  EMPLOYEE_CATEGORY,
  employeeDecider,
  toEmployeeWebhookDto,
  type EmployeeEvent,
  type EmployeeState,
} from '../domain/employees/index.js';
import { employeesProjection } from '../../projections/employees/projection.js';
import { employeeRoutes } from '../http/routes/employees/routes.js';
import { employeeHistoryRoutes } from '../http/routes/employees/history-routes.js';
import { Employee, EmployeeBody } from '../http/routes/employees/schemas.js';
import type { FeatureModule, WebhookSource } from './feature.js';

const webhooks: WebhookSource<EmployeeState, EmployeeEvent> = {
  category: EMPLOYEE_CATEGORY,
  decider: employeeDecider,
  catalogTypeOf(type) {
    if (type === 'EmployeeRegistered') return 'employee.created';
    return type.startsWith('Employee') ? 'employee.updated' : undefined;
  },
  summaryOf: (state) => (state.kind === 'Registered' ? toEmployeeWebhookDto(state.employee) : undefined),
};

export const employeesFeature: FeatureModule = {
  name: 'employees',
  projections: [employeesProjection],
  routes: [employeeRoutes, employeeHistoryRoutes],
  schemas: [Employee, EmployeeBody],
  webhooks,
};
