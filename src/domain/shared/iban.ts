// IBAN validation (ISO 13616) by ibantools: the country's registered length and BBAN format, the
// ISO 7064 MOD 97-10 check, and the national account checksums ibantools knows (Croatia's, for
// one). Only countries of the SWIFT IBAN Registry count: a country outside it has no IBAN, so an
// account number claiming one is rejected rather than passed on the checksum alone. This module
// turns ibantools' error codes into the messages partners read.
import { countrySpecs, validateIBAN, ValidationErrorsIBAN } from 'ibantools';

/** Electronic format: spaces and dashes removed, upper case (`hr12 1001 ...` -> `HR121001...`). */
export function normalizeIban(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

/** The registered IBAN length of a country, or undefined when the country has no IBAN. */
export function ibanLengthOf(countryCode: string): number | undefined {
  const spec = countrySpecs[countryCode];
  return spec?.IBANRegistry ? spec.chars : undefined;
}

/** Why the (already normalized) IBAN is invalid, or null when it is valid. */
export function ibanProblem(iban: string): string | null {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) {
    return 'Must be an IBAN: two letters, two check digits, then letters and digits.';
  }
  const country = iban.slice(0, 2);
  const expected = ibanLengthOf(country);
  if (expected === undefined) return `Country ${country} does not use IBANs.`;
  if (iban.length !== expected) return `An IBAN of ${country} has ${expected} characters, not ${iban.length}.`;
  const { errorCodes } = validateIBAN(iban);
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return `The account part does not have the format of a ${country} IBAN.`;
  if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum)) return 'The IBAN check digits do not match (MOD 97).';
  if (errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum))
    return `The ${country} account number's own check digit does not match.`;
  if (errorCodes.length > 0) return 'Must be a valid IBAN.';
  return null;
}

export const isValidIban = (value: string): boolean => ibanProblem(normalizeIban(value)) === null;
