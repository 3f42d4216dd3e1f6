// BIC (ISO 9362) by ibantools: bank code (4 letters), country (2 letters), location (2
// alphanumerics) and an optional branch (3 alphanumerics), with a known country. Only the format
// can be checked offline.
import { validateBIC, ValidationErrorsBIC } from 'ibantools';

/** Why the (upper-cased) BIC is invalid, or null when its format is valid. */
export function bicProblem(bic: string): string | null {
  const { errorCodes } = validateBIC(bic);
  if (errorCodes.length === 0) return null;
  if (errorCodes.includes(ValidationErrorsBIC.NoBICCountry) && /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) {
    return `The BIC's country ${bic.slice(4, 6)} is not an ISO 3166-1 code.`;
  }
  return 'Must be a BIC of 8 or 11 characters (e.g. ZABAHR2X or ZABAHR2XXXX).';
}
