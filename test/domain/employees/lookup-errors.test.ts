// The shell's lookup problems (an unknown or archived departmentId) are judged with the profile's
// own: one VALIDATION_FAILED naming every field; an archived employee's 409 still wins.
import t from 'tap';
import type { EmployeeEvent, EmployeeFields } from '../../../src/domain/employees/index.js';
import { definitions, fullFields, scenario } from './fixtures.js';

const EMPLOYEE_ID = 'emp-1';
const lookupErrors = { departmentId: ['No such active department in this company.'] };
const badProfile = () => ({ ...fullFields(), email: 'not-an-email', bankAccountNumber: 'HR00 0000' });
const data = (fields: EmployeeFields = badProfile()) => ({
  employeeId: EMPLOYEE_ID,
  fields,
  customFieldDefinitions: definitions,
  lookupErrors,
});

t.test('register: the department and the profile problems in one 400', async (t) => {
  const err = scenario(t)
    .given([])
    .when({ type: 'RegisterEmployee', data: data() })
    .thenThrows('VALIDATION_FAILED', ['bankAccountNumber', 'departmentId', 'email']);
  t.same(err.errors?.departmentId, lookupErrors.departmentId);
});

t.test('register: the department alone is refused too', async (t) => {
  scenario(t)
    .given([])
    .when({ type: 'RegisterEmployee', data: data(fullFields()) })
    .thenThrows('VALIDATION_FAILED', ['departmentId']);
});

t.test('replace: merged the same way; an archived employee is a 409 whatever the fields', async (t) => {
  const registered: EmployeeEvent = {
    type: 'EmployeeRegistered',
    data: { employeeId: EMPLOYEE_ID, profile: { ...fullFields(), firstName: 'Ana' } as never, at: '2026-01-01T00:00:00.000Z' },
  };
  scenario(t)
    .given([registered])
    .when({ type: 'ReplaceEmployee', data: data() })
    .thenThrows('VALIDATION_FAILED', ['bankAccountNumber', 'departmentId', 'email']);
  scenario(t)
    .given([registered, { type: 'EmployeeArchived', data: { employeeId: EMPLOYEE_ID, at: '2026-01-02T00:00:00.000Z' } }])
    .when({ type: 'ReplaceEmployee', data: data() })
    .thenThrows('EMPLOYEE_ARCHIVED');
});
