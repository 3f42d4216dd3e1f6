// Turns the request fields of a register or a full replacement into a complete profile, or
// throws one validation error naming every offending field (`bankAccountNumber`,
// `address.countryCode`, `address.municipalityCode`, `customFields.costCode`, ...).
import { bicProblem } from '../shared/bic.js';
import { isCountryCode } from '../shared/country-codes.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import { ibanProblem, normalizeIban } from '../shared/iban.js';
import { invisibleCharacterProblem, optionalText, textProblem } from '../shared/text.js';
import type { AddressFields, CustomFieldDefinition, EmployeeFields, MunicipalityCodes } from './commands.js';
import { validateCustomFields } from './custom-fields.js';
import { EMPLOYEE_STATUSES, RESIDENCIES, type Address, type EmployeeProfile, type EmployeeStatus, type Residency } from './model.js';

const NAME_MAX = 100;
const TEXT_MAX = 200;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()/.-]{2,29}$/;

/**
 * A profile's text. `stored` is the field's value in the profile a replacement changes: an unchanged
 * value passes as it is, so an employee stored before invisible characters were refused can still be
 * edited elsewhere; a new or changed one must print as it reads. A zero-width space or a bidi
 * override in a name or tax number reached payroll files and bank orders as it was sent.
 */
function text(
  errors: FieldErrorCollector,
  path: string,
  value: string | null | undefined,
  stored: string | null | undefined,
  required = false,
  maxLength = TEXT_MAX,
): string | null {
  const v = optionalText(value);
  errors.check(path, textProblem(v, { required, maxLength }) ?? (v === stored ? null : invisibleCharacterProblem(v)));
  return v;
}

const MUNICIPALITY_LIST = { HR: 'croatian-municipalities', SI: 'slovenian-municipalities' } as const;

function municipality(
  errors: FieldErrorCollector,
  countryCode: string | null,
  value: string | null | undefined,
  known: MunicipalityCodes | undefined,
): string | null {
  const code = optionalText(value);
  if (code === null) return null;
  const path = 'address.municipalityCode';
  if (countryCode !== 'HR' && countryCode !== 'SI') errors.add(path, 'Only an address in HR or SI carries a municipality code.');
  else if (known === undefined) errors.add(path, 'Municipality codes cannot be checked here.');
  else if (!known[countryCode].has(code)) {
    errors.add(path, `Not a known ${countryCode} municipality code: see GET /api/v1/reference/${MUNICIPALITY_LIST[countryCode]}.`);
  }
  return code;
}

function address(
  errors: FieldErrorCollector,
  fields: AddressFields | null | undefined,
  known: MunicipalityCodes | undefined,
  stored: Address | null | undefined,
): Address | null {
  if (fields === null || fields === undefined) return null;
  const countryCode = optionalText(fields.countryCode);
  if (countryCode === null) errors.add('address.countryCode', 'Required when an address is given.');
  else if (!isCountryCode(countryCode)) errors.add('address.countryCode', 'Must be an ISO 3166-1 alpha-2 code such as HR.');
  const municipalityCode = municipality(errors, countryCode, fields.municipalityCode, known);
  return {
    street: text(errors, 'address.street', fields.street, stored?.street),
    postalCode: text(errors, 'address.postalCode', fields.postalCode, stored?.postalCode, false, 20),
    city: text(errors, 'address.city', fields.city, stored?.city),
    countryCode: countryCode ?? '',
    ...(municipalityCode !== null && { municipalityCode }),
  };
}

function oneOf<T extends string>(
  errors: FieldErrorCollector,
  path: string,
  value: string | null | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  const v = optionalText(value);
  if (v === null) return fallback;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  errors.add(path, `Must be one of ${allowed.join(', ')}.`);
  return fallback;
}

/** `stored`: the profile a replacement changes (see `text`). */
export function validateProfile(
  fields: EmployeeFields,
  definitions: readonly CustomFieldDefinition[],
  municipalityCodes?: MunicipalityCodes,
  stored?: EmployeeProfile,
): EmployeeProfile {
  const errors = new FieldErrorCollector();
  const email = text(errors, 'email', fields.email, stored?.email, false, 254);
  if (email !== null && !EMAIL.test(email)) errors.add('email', 'Must be an email address.');
  const phone = text(errors, 'phone', fields.phone, stored?.phone, false, 30);
  if (phone !== null && !PHONE.test(phone)) errors.add('phone', 'Must be a phone number (digits, spaces, + ( ) - / .).');

  const ibanText = optionalText(fields.bankAccountNumber);
  const iban = ibanText === null ? null : normalizeIban(ibanText);
  if (iban !== null) errors.check('bankAccountNumber', ibanProblem(iban));
  const bicText = optionalText(fields.bankIdentifierCode);
  const bic = bicText === null ? null : bicText.toUpperCase();
  if (bic !== null) errors.check('bankIdentifierCode', bicProblem(bic));

  const profile: EmployeeProfile = {
    firstName: text(errors, 'firstName', fields.firstName, stored?.firstName, true, NAME_MAX) ?? '',
    lastName: text(errors, 'lastName', fields.lastName, stored?.lastName, true, NAME_MAX) ?? '',
    email,
    phone,
    address: address(errors, fields.address, municipalityCodes, stored?.address),
    taxId: text(errors, 'taxId', fields.taxId, stored?.taxId, false, 50),
    bankAccountNumber: iban,
    bankIdentifierCode: bic,
    position: text(errors, 'position', fields.position, stored?.position),
    departmentId: text(errors, 'departmentId', fields.departmentId, stored?.departmentId),
    status: oneOf<EmployeeStatus>(errors, 'status', fields.status, EMPLOYEE_STATUSES, 'Active'),
    isAccountOwner: fields.isAccountOwner ?? false,
    residency: oneOf<Residency>(errors, 'residency', fields.residency, RESIDENCIES, 'Resident'),
    customFields: validateCustomFields(fields.customFields, definitions, errors),
  };
  errors.throwIfAny();
  return profile;
}
