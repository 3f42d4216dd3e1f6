// Optional text in commands: `undefined` (omitted) and `null` both mean "no value", and blank
// strings are treated as absent, so a full replacement that omits a field clears it.

/** Trimmed text, or null when absent or blank. */
export function optionalText(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Why the (trimmed) text is unacceptable, or null. */
export function textProblem(value: string | null, opts: { required: boolean; maxLength: number }): string | null {
  if (value === null) return opts.required ? 'Required.' : null;
  if (value.length > opts.maxLength) return `At most ${opts.maxLength} characters.`;
  return null;
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
