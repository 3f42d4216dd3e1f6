// BIC (ISO 9362): bank code (4 letters), country (2 letters), location (2 alphanumerics) and an
// optional branch (3 alphanumerics). Only the format can be checked offline.
import { isCountryCode } from './country-codes.js';

const BIC = /^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** Why the (upper-cased) BIC is invalid, or null when its format is valid. */
export function bicProblem(bic: string): string | null {
  const m = BIC.exec(bic);
  if (m === null) return 'Must be a BIC of 8 or 11 characters (e.g. ZABAHR2X or ZABAHR2XXXX).';
  if (!isCountryCode(m[1] ?? '')) return `The BIC's country ${m[1]} is not an ISO 3166-1 code.`;
  return null;
}
