// IBAN validation (ISO 13616): the country's registered length plus the ISO 7064 MOD 97-10 check.
// The length table is the SWIFT IBAN Registry (release 98, 2025); a country missing from it has no
// IBAN, so an account number claiming it is rejected rather than passed on the checksum alone.

export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** Electronic format: spaces and dashes removed, upper case (`hr12 1001 ...` -> `HR121001...`). */
export function normalizeIban(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

/** MOD 97-10 over the rearranged IBAN, digit by digit so no number exceeds 2^53. */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    // Letters count as two digits (A = 10 ... Z = 35).
    const digits = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder;
}

/** Why the (already normalized) IBAN is invalid, or null when it is valid. */
export function ibanProblem(iban: string): string | null {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) {
    return 'Must be an IBAN: two letters, two check digits, then letters and digits.';
  }
  const expected = IBAN_LENGTHS[iban.slice(0, 2)];
  if (expected === undefined) return `Country ${iban.slice(0, 2)} does not use IBANs.`;
  if (iban.length !== expected) return `An IBAN of ${iban.slice(0, 2)} has ${expected} characters, not ${iban.length}.`;
  if (mod97(iban) !== 1) return 'The IBAN check digits do not match (MOD 97).';
  return null;
}

export const isValidIban = (value: string): boolean => ibanProblem(normalizeIban(value)) === null;
