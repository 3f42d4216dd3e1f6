// GET /employees/{id}/history: the employee's recorded events for auditors (see ../audit/history-route.ts).
import { EMPLOYEE_CATEGORY, streamName } from '../../../domain/employees/index.js';
import { historyRoutes } from '../audit/history-route.js';

export const employeeHistoryRoutes = historyRoutes({
  path: '/employees',
  what: 'Employee',
  tags: ['Employees', 'Audit'],
  streamName,
  resourceType: EMPLOYEE_CATEGORY,
});
