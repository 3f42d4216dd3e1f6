// Employee commands. The client's fields arrive as parsed JSON (the HTTP schema has checked the
// types); the custom-field definitions are the shell's lookup of the tenant's configuration.
import type { FieldErrors } from '../errors.js';

export interface AddressFields {
  street?: string | null;
  postalCode?: string | null;
  city?: string | null;
  countryCode?: string | null;
  /** HR or SI only; checked against `municipalityCodes`. */
  municipalityCode?: string | null;
}

/** Which address countries carry a municipality code, and the known codes of each (the shell's lookup of the shipped lists). */
export type MunicipalityCodes = Readonly<Record<'HR' | 'SI', ReadonlySet<string>>>;

/** The request body of POST and PUT. Omitted optional fields are cleared on PUT. */
export interface EmployeeFields {
  firstName: string;
  lastName: string;
  email?: string | null;
  phone?: string | null;
  address?: AddressFields | null;
  taxId?: string | null;
  /** IBAN; spaces and lower case are accepted and normalized. */
  bankAccountNumber?: string | null;
  bankIdentifierCode?: string | null;
  position?: string | null;
  departmentId?: string | null;
  /** Allow-list: `Active` (default), `Inactive`. */
  status?: string | null;
  isAccountOwner?: boolean | null;
  /** Allow-list: `Resident` (default), `NonResident`. */
  residency?: string | null;
  customFields?: Record<string, unknown> | null;
}

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'date'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** One of the tenant's custom-field definitions (shell lookup). */
export interface CustomFieldDefinition {
  key: string;
  type: CustomFieldType;
  required: boolean;
}

export type RegisterEmployee = {
  type: 'RegisterEmployee';
  /** `employeeId`: chosen by the shell, since it names the stream. */
  data: EmployeeProfileData;
};
export type ReplaceEmployee = {
  type: 'ReplaceEmployee';
  data: EmployeeProfileData;
};

/** What the shell looked up for a register or a replacement. */
export interface EmployeeProfileFacts {
  customFieldDefinitions: CustomFieldDefinition[];
  /** The known municipality codes; without them an address's municipalityCode is refused (it cannot be checked). */
  municipalityCodes?: MunicipalityCodes;
  /** References naming no active record of the tenant (`departmentId`): judged with the profile's problems in one 400. */
  lookupErrors?: FieldErrors;
}

interface EmployeeProfileData extends EmployeeProfileFacts {
  employeeId: string;
  fields: EmployeeFields;
}
export type ArchiveEmployee = { type: 'ArchiveEmployee'; data: { employeeId: string } };

export type EmployeeCommand = RegisterEmployee | ReplaceEmployee | ArchiveEmployee;
