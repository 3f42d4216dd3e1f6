// Optional text in commands: `undefined` (omitted) and `null` both mean "no value", and blank
// strings are treated as absent, so a full replacement that omits a field clears it.

/** Trimmed text, or null when absent or blank. */
export function optionalText(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * Characters as the published schemas count them: Unicode code points, as JSON Schema's maxLength
 * (and PostgreSQL's varchar) does, not UTF-16 units. `value.length` counted an emoji as two, so a
 * name within the schema's maxLength could still be refused (session 13's outside probe).
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++; // a string iterates by code point (a lone surrogate is one)
  return count;
}

/** Why the (trimmed) text is unacceptable, or null. */
export function textProblem(value: string | null, opts: { required: boolean; maxLength: number }): string | null {
  if (value === null) return opts.required ? 'Required.' : null;
  if (characterCount(value) > opts.maxLength) return `At most ${opts.maxLength} characters.`;
  return null;
}

// Control characters (Cc), format characters (Cf: zero-width spaces and joiners, bidi overrides),
// lone surrogates (Cs) and line or paragraph separators: none prints as itself, so a code of one
// zero-width space looks empty, `CC\u200b-1` looks like `CC-1`, and `\u202e` turns the rest around.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/** Why a code or name shows other than it reads, or null. */
export function invisibleCharacterProblem(value: string | null): string | null {
  return value !== null && INVISIBLE.test(value) ? 'Must not contain control, format or other invisible characters.' : null;
}

/** Structural equality for plain JSON data, independent of key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
