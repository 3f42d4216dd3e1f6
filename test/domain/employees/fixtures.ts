// Employee fixtures: a complete valid request and the tenant's custom-field definitions.
import type { CustomFieldDefinition, EmployeeFields } from '../../../src/domain/employees/index.js';
import { employeeDecider } from '../../../src/domain/employees/index.js';
import { givenWhenThen } from '../../helpers/given-when-then.js';

export const scenario = givenWhenThen(employeeDecider);

export const definitions: CustomFieldDefinition[] = [
  { key: 'costCode', type: 'text', required: true },
  { key: 'grade', type: 'number', required: false },
  { key: 'remote', type: 'boolean', required: false },
  { key: 'hiredOn', type: 'date', required: false },
];

export const fullFields = (): EmployeeFields => ({
  firstName: ' Ana ',
  lastName: 'Horvat',
  email: 'ana.horvat@example.hr',
  phone: '+385 1 234 5678',
  address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', countryCode: 'HR' },
  taxId: '12345678903',
  bankAccountNumber: 'hr12 1001 0051 8630 0016 0',
  bankIdentifierCode: 'zabahr2x',
  position: 'Engineer',
  departmentId: 'dep-1',
  status: 'Active',
  isAccountOwner: false,
  residency: 'NonResident',
  customFields: { costCode: 'CC-7', grade: 3, remote: true, hiredOn: '2020-01-15' },
});
