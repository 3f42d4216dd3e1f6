// The employee record as events carry it and state holds it. Canonical enumeration strings are
// the API's allow-lists: once published they never change.

/** Employment status: `Active` employees can travel and approve; `Inactive` ones are kept for history. */
export const EMPLOYEE_STATUSES = ['Active', 'Inactive'] as const;
export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];

/** Tax residency (Slovenian per-diem and payroll-tax reporting). Default `Resident`. */
export const RESIDENCIES = ['Resident', 'NonResident'] as const;
export type Residency = (typeof RESIDENCIES)[number];

export interface Address {
  street: string | null;
  postalCode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /**
   * HR or SI only: the municipality's code in the national register (HR 5 digits, SI 3 digits; GET
   * /api/v1/reference/croatian-municipalities, /slovenian-municipalities). Absent when not given, so
   * records from before the field existed compare equal.
   */
  municipalityCode?: string;
}

/** A custom-field value: text, number, boolean, or a `yyyy-MM-dd` date (as text). */
export type CustomFieldValue = string | number | boolean;

/** Everything a register or a full replacement sets; absent optional values are null. */
export interface EmployeeProfile {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  address: Address | null;
  taxId: string | null;
  /** IBAN in electronic format (no spaces, upper case). */
  bankAccountNumber: string | null;
  bankIdentifierCode: string | null;
  position: string | null;
  departmentId: string | null;
  status: EmployeeStatus;
  isAccountOwner: boolean;
  residency: Residency;
  /** Values for the tenant's definitions, keyed by definition key; absent values are not stored. */
  customFields: Record<string, CustomFieldValue>;
}

export interface Employee extends EmployeeProfile {
  id: string;
  isArchived: boolean;
  createdAt: string;
  editedAt: string;
}
