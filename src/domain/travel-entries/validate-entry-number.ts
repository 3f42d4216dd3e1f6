// Entry numbers. Created entries get `YYYY-NNNNN` from the shell (the year of the entry date, a
// gap-free sequence per tenant and year). Imported entries bring their number, either in that same
// format (then it must be a number the sequence could have given: the entry date's year, sequence
// from 00001) or in the legacy pattern below. Numbers leave in partner payloads, CSV exports and
// payment references, so anything outside these two shapes is refused: control and format
// characters (a bidi override makes "2026-00042" display as another number), markup, and lookalikes
// of a date such as `2026-02-30`. Uniqueness per tenant is the shell's (entry-numbers.ts).

/** `2026-00042`: year, dash, a sequence of at least five digits. */
export const ENTRY_NUMBER = /^(\d{4})-(\d{5,})$/;

/**
 * A legacy system's number: a letter first (so it can never be mistaken for, or collide with, the
 * `YYYY-NNNNN` space or a date), then ASCII letters and digits in groups joined by one of - / . _
 * (`LEG-2021-7`, `PN-2019/17`, `HR.2020.0042`). Digits inside a legacy number are the old
 * system's business (fiscal years, filing numbers) and are not checked against the entry date.
 */
export const LEGACY_ENTRY_NUMBER = /^[A-Za-z][A-Za-z0-9]*(?:[-/._][A-Za-z0-9]+)*$/;

export const ENTRY_NUMBER_MAX_LENGTH = 40;

const FORMAT_MESSAGE =
  'Must be YYYY-NNNNN (e.g. 2026-00042) or a legacy number: a letter, then letters and digits ' +
  `in groups joined by - / . or _ (e.g. LEG-2021-7), at most ${ENTRY_NUMBER_MAX_LENGTH} characters.`;

/** The `YYYY-NNNNN` parts of a number, or null for any other shape. */
export function parseEntryNumber(entryNumber: string): { year: string; sequence: number } | null {
  const m = ENTRY_NUMBER.exec(entryNumber);
  return m ? { year: m[1]!, sequence: Number(m[2]) } : null;
}

/** Why an imported entry number is unacceptable for an entry dated `entryDate`, or null. */
export function importedEntryNumberProblem(entryNumber: string, entryDate: string): string | null {
  if (entryNumber.length > ENTRY_NUMBER_MAX_LENGTH) return `At most ${ENTRY_NUMBER_MAX_LENGTH} characters.`;
  const standard = parseEntryNumber(entryNumber);
  if (standard) {
    const year = entryDate.slice(0, 4);
    if (standard.year !== year) return `The year must be the entry date's year (${year}), as in ${year}-00042.`;
    if (standard.sequence === 0) return 'The sequence starts at 00001.';
    if (!Number.isSafeInteger(standard.sequence)) return 'The sequence is too long.';
    return null;
  }
  return LEGACY_ENTRY_NUMBER.test(entryNumber) ? null : FORMAT_MESSAGE;
}
