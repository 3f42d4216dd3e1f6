// Employees read model (rm_employees), folded with the domain's own evolve.
import { employeeDecider, type EmployeeState } from '../../src/domain/employees/index.js';
import type { EmployeeEvent } from '../../src/domain/employees/events.js';
import { documentProjection } from '../document-projection.js';

export const employeesProjection = documentProjection<EmployeeState>({
  name: 'employees',
  category: 'employee',
  table: 'rm_employees',
  initialState: employeeDecider.initialState,
  evolve: (s, e) => employeeDecider.evolve(s, e as EmployeeEvent),
  columns: (s) =>
    s.kind === 'Registered'
      ? { status: s.employee.status, is_archived: s.employee.isArchived, created_at: s.employee.createdAt, edited_at: s.employee.editedAt }
      : undefined,
});
