// The PII-free employee summary carried by employee.* webhooks. Fields are picked one by one (never
// spread from the record) so a field added to Employee can never leak into a payload; contact
// data, address, tax id, bank details and custom fields are available only from
// GET /api/v1/employees/{id}. Append-only in v1: add non-personal fields, never remove or rename.
import type { Employee, EmployeeStatus } from './model.js';

export interface EmployeeWebhookDto {
  id: string;
  firstName: string;
  lastName: string;
  position: string | null;
  departmentId: string | null;
  status: EmployeeStatus;
  isAccountOwner: boolean;
  isArchived: boolean;
  createdAt: string;
  editedAt: string;
}

export function toEmployeeWebhookDto(employee: Employee): EmployeeWebhookDto {
  return {
    id: employee.id,
    firstName: employee.firstName,
    lastName: employee.lastName,
    position: employee.position,
    departmentId: employee.departmentId,
    status: employee.status,
    isAccountOwner: employee.isAccountOwner,
    isArchived: employee.isArchived,
    createdAt: employee.createdAt,
    editedAt: employee.editedAt,
  };
}
