import t from 'tap';
import type { EmployeeEvent, EmployeeProfile } from '../../../src/domain/employees/index.js';
import { TEST_NOW } from '../../helpers/given-when-then.js';
import { definitions, fullFields, scenario } from './fixtures.js';

const EMPLOYEE_ID = 'emp-1';
const EARLIER = '2026-01-01T00:00:00.000Z';

const profile: EmployeeProfile = {
  firstName: 'Ana',
  lastName: 'Horvat',
  email: 'ana.horvat@example.hr',
  phone: '+385 1 234 5678',
  address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', countryCode: 'HR' },
  taxId: '12345678903',
  bankAccountNumber: 'HR1210010051863000160',
  bankIdentifierCode: 'ZABAHR2X',
  position: 'Engineer',
  departmentId: 'dep-1',
  status: 'Active',
  isAccountOwner: false,
  residency: 'NonResident',
  customFields: { costCode: 'CC-7', grade: 3, remote: true, hiredOn: '2020-01-15' },
};

const registered: EmployeeEvent = { type: 'EmployeeRegistered', data: { employeeId: EMPLOYEE_ID, profile, at: EARLIER } };
const archived: EmployeeEvent = { type: 'EmployeeArchived', data: { employeeId: EMPLOYEE_ID, at: EARLIER } };

const register = (fields = fullFields()) => ({
  type: 'RegisterEmployee' as const,
  data: { employeeId: EMPLOYEE_ID, fields, customFieldDefinitions: definitions },
});
const replace = (fields = fullFields()) => ({
  type: 'ReplaceEmployee' as const,
  data: { employeeId: EMPLOYEE_ID, fields, customFieldDefinitions: definitions },
});
const archive = { type: 'ArchiveEmployee' as const, data: { employeeId: EMPLOYEE_ID } };

t.test('register records the normalized profile (trimmed, IBAN electronic, BIC upper case)', async (t) => {
  scenario(t)
    .given([])
    .when(register())
    .then([{ type: 'EmployeeRegistered', data: { employeeId: EMPLOYEE_ID, profile, at: TEST_NOW } }]);
});

t.test('register applies the defaults: Active, Resident, not account owner, nulls', async (t) => {
  const [event] = scenario(t)
    .given([])
    .when(register({ firstName: 'Jan', lastName: 'Novák', customFields: { costCode: 'X' } }))
    .events();
  t.match(event?.data, {
    profile: {
      status: 'Active',
      residency: 'Resident',
      isAccountOwner: false,
      email: null,
      phone: null,
      address: null,
      taxId: null,
      bankAccountNumber: null,
      bankIdentifierCode: null,
      position: null,
      departmentId: null,
      customFields: { costCode: 'X' },
    },
  });
});

t.test('register twice is a conflict', async (t) => {
  scenario(t).given([registered]).when(register()).thenThrows('EMPLOYEE_ALREADY_EXISTS');
});

t.test('validation errors are keyed by field path, all at once', async (t) => {
  const fields = {
    ...fullFields(),
    firstName: '  ',
    email: 'not-an-email',
    phone: 'call me',
    bankAccountNumber: 'HR1310010051863000160',
    bankIdentifierCode: 'ZABA',
    address: { city: 'Zagreb', countryCode: 'hr' },
    status: 'Retired',
    residency: 'Alien',
    customFields: { grade: 'three', remote: 'yes', hiredOn: '2020-02-30', unknownField: 1 },
  };
  const error = scenario(t)
    .given([])
    .when(register(fields))
    .thenThrows('VALIDATION_FAILED', [
      'firstName',
      'email',
      'phone',
      'bankAccountNumber',
      'bankIdentifierCode',
      'address.countryCode',
      'status',
      'residency',
      'customFields.costCode',
      'customFields.grade',
      'customFields.remote',
      'customFields.hiredOn',
      'customFields.unknownField',
    ]);
  t.equal(error.status, 400);
  t.match(error.errors?.bankAccountNumber?.[0], /MOD 97/);
  t.match(error.errors?.['customFields.costCode']?.[0], /Required/);
  t.match(error.errors?.['customFields.unknownField']?.[0], /Unknown custom field/);
});

t.test('an IBAN of the wrong length for its country is rejected', async (t) => {
  const error = scenario(t)
    .given([])
    .when(register({ ...fullFields(), bankAccountNumber: 'SI5626330001203908' }))
    .thenThrows('VALIDATION_FAILED', ['bankAccountNumber']);
  t.match(error.errors?.bankAccountNumber?.[0], /19 characters/);
});

t.test('an address needs its country code', async (t) => {
  scenario(t)
    .given([])
    .when(register({ ...fullFields(), address: { street: 'Ilica 1' } }))
    .thenThrows('VALIDATION_FAILED', ['address.countryCode']);
});

t.test('replace is a full replacement: omitted optional fields are cleared', async (t) => {
  const [event] = scenario(t)
    .given([registered])
    .when(replace({ firstName: 'Ana', lastName: 'Kovač', customFields: { costCode: 'CC-8' } }))
    .events();
  t.equal(event?.type, 'EmployeeUpdated');
  t.strictSame(event?.data, {
    employeeId: EMPLOYEE_ID,
    profile: {
      firstName: 'Ana',
      lastName: 'Kovač',
      email: null,
      phone: null,
      address: null,
      taxId: null,
      bankAccountNumber: null,
      bankIdentifierCode: null,
      position: null,
      departmentId: null,
      status: 'Active',
      isAccountOwner: false,
      residency: 'Resident',
      customFields: { costCode: 'CC-8' },
    },
    at: TEST_NOW,
  });
});

t.test('a replacement that changes nothing records nothing', async (t) => {
  scenario(t).given([registered]).when(replace()).then([]);
});

t.test('replace of an unknown employee is 404', async (t) => {
  const error = scenario(t).given([]).when(replace()).thenThrows('NOT_FOUND');
  t.equal(error.status, 404);
});

t.test('replace validates like register', async (t) => {
  scenario(t)
    .given([registered])
    .when(replace({ ...fullFields(), bankAccountNumber: 'DE00' }))
    .thenThrows('VALIDATION_FAILED', ['bankAccountNumber']);
});

t.test('archive records EmployeeArchived and the state shows it', async (t) => {
  const s = scenario(t).given([registered]).when(archive);
  s.then([{ type: 'EmployeeArchived', data: { employeeId: EMPLOYEE_ID, at: TEST_NOW } }]);
  const state = s.state();
  t.equal(state.kind, 'Registered');
  if (state.kind === 'Registered') {
    t.equal(state.employee.isArchived, true);
    t.equal(state.employee.createdAt, EARLIER);
    t.equal(state.employee.editedAt, TEST_NOW);
  }
});

t.test('every write to an archived employee is 409 EMPLOYEE_ARCHIVED', async (t) => {
  const a = scenario(t).given([registered, archived]).when(replace()).thenThrows('EMPLOYEE_ARCHIVED');
  t.equal(a.status, 409);
  scenario(t).given([registered, archived]).when(archive).thenThrows('EMPLOYEE_ARCHIVED');
});

t.test('archive of an unknown employee is 404', async (t) => {
  scenario(t).given([]).when(archive).thenThrows('NOT_FOUND');
});

t.test('evolve keeps createdAt and moves editedAt on update', async (t) => {
  const s = scenario(t)
    .given([registered])
    .when(replace({ ...fullFields(), position: 'Lead' }));
  const state = s.state();
  if (state.kind !== 'Registered') return t.fail('registered');
  t.equal(state.employee.position, 'Lead');
  t.equal(state.employee.createdAt, EARLIER);
  t.equal(state.employee.editedAt, TEST_NOW);
  t.equal(state.employee.id, EMPLOYEE_ID);
});

t.test('invisible characters in a new or changed name, tax number or other text are refused, keyed by field', async (t) => {
  // They reached payroll files and bank orders as sent: `An\u200ba` sorts and matches apart from
  // `Ana`, and a bidi override turns a tax number around on screen.
  for (const [fields, keys] of [
    [{ firstName: 'An\u200ba' }, ['firstName']],
    [{ lastName: '\u202eHorvat' }, ['lastName']],
    [{ taxId: '1234\u00ad5678903', position: 'Eng\u0007ineer' }, ['taxId', 'position']],
    [{ email: 'ana\u200b@example.hr' }, ['email']],
    [
      { address: { street: 'Ilica\u20281', postalCode: '10000', city: 'Zag\ufeffreb', countryCode: 'HR' } },
      ['address.street', 'address.city'],
    ],
  ] as const) {
    scenario(t)
      .given([])
      .when(register({ ...fullFields(), ...fields }))
      .thenThrows('VALIDATION_FAILED', [...keys]);
    scenario(t)
      .given([registered])
      .when(replace({ ...fullFields(), ...fields }))
      .thenThrows('VALIDATION_FAILED', [...keys]);
  }
});

t.test('an employee stored with invisible characters can still be edited elsewhere (the texts kept)', async (t) => {
  const odd: EmployeeProfile = { ...profile, firstName: 'An\u200ba', taxId: '1234\u00ad5678903' };
  const stored: EmployeeEvent = { type: 'EmployeeRegistered', data: { employeeId: EMPLOYEE_ID, profile: odd, at: EARLIER } };
  const fields = { ...fullFields(), firstName: odd.firstName, taxId: odd.taxId };
  scenario(t)
    .given([stored])
    .when(replace({ ...fields, position: 'Lead' }))
    .then([{ type: 'EmployeeUpdated', data: { employeeId: EMPLOYEE_ID, profile: { ...odd, position: 'Lead' }, at: TEST_NOW } }]);
  scenario(t)
    .given([stored])
    .when(replace({ ...fields, lastName: 'Hor\u200bvat' }))
    .thenThrows('VALIDATION_FAILED', ['lastName']); // a changed text is checked
});
