import t from 'tap';
import { toEmployeeWebhookDto, type Employee } from '../../../src/domain/employees/index.js';

const EXPECTED_KEYS = [
  'id',
  'firstName',
  'lastName',
  'position',
  'departmentId',
  'status',
  'isAccountOwner',
  'isArchived',
  'createdAt',
  'editedAt',
];

// Every personal field carries a marker; none may appear anywhere in the serialized summary.
const employee: Employee = {
  id: 'emp-1',
  firstName: 'Ana',
  lastName: 'Horvat',
  email: 'PII-EMAIL@example.hr',
  phone: 'PII-PHONE',
  address: { street: 'PII-STREET', postalCode: 'PII-POSTAL', city: 'PII-CITY', countryCode: 'PII-COUNTRY' },
  taxId: 'PII-TAXID',
  bankAccountNumber: 'PII-IBAN',
  bankIdentifierCode: 'PII-BIC',
  position: 'Engineer',
  departmentId: 'dep-1',
  status: 'Active',
  isAccountOwner: true,
  isArchived: false,
  residency: 'NonResident',
  customFields: { costCode: 'PII-CUSTOM', note: 'PII-CUSTOM-2' },
  createdAt: '2026-01-01T00:00:00.000Z',
  editedAt: '2026-01-02T00:00:00.000Z',
};

t.test('the summary has exactly the spec fields', async (t) => {
  const dto = toEmployeeWebhookDto(employee);
  t.strictSame(Object.keys(dto).sort(), [...EXPECTED_KEYS].sort());
  t.strictSame(dto, {
    id: 'emp-1',
    firstName: 'Ana',
    lastName: 'Horvat',
    position: 'Engineer',
    departmentId: 'dep-1',
    status: 'Active',
    isAccountOwner: true,
    isArchived: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    editedAt: '2026-01-02T00:00:00.000Z',
  });
});

t.test('no personal field can appear in the summary', async (t) => {
  const json = JSON.stringify(toEmployeeWebhookDto(employee));
  t.notMatch(json, /PII-/);
  for (const key of ['email', 'phone', 'address', 'taxId', 'bankAccountNumber', 'bankIdentifierCode', 'customFields', 'residency']) {
    t.notOk(json.includes(`"${key}"`), `no ${key}`);
  }
});

t.test('fields added to the record later do not leak (picked, not spread)', async (t) => {
  const extended = { ...employee, dateOfBirth: 'PII-DOB' } as Employee;
  t.notMatch(JSON.stringify(toEmployeeWebhookDto(extended)), /PII-/);
});
