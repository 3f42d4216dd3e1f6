// JSON can carry values our storage cannot: PostgreSQL refuses U+0000 in text and jsonb, and a lone
// UTF-16 surrogate ("\ud800") has no UTF-8 form (jsonb refuses the escape JSON.stringify writes for
// it). JSON.parse also turns 1e400 into Infinity, which JSON.stringify then writes as null, and a
// deeply nested value overflows every recursive walk after it. Such input is a client mistake; it
// is found here, once, for every string (keys included) of a request, and reported by field
// instead of failing an insert with a 500.

/** Deeper than any document the API defines (an entry is 4 levels deep); a limit, not a guess at a schema. */
export const MAX_JSON_DEPTH = 32;

const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored, or null when it can. */
export function unstorableTextProblem(text: string): string | null {
  if (NUL.test(text)) return 'Must not contain the NUL character (U+0000).';
  if (LONE_SURROGATE.test(text)) return 'Must be valid Unicode (contains an unpaired surrogate).';
  return null;
}

export interface UnstorableValue {
  /** Path segments from the root: property names and array indexes. */
  path: (string | number)[];
  message: string;
}

/**
 * Every place in a parsed JSON value that cannot be stored. Iterative (an explicit stack), so a
 * value nested a million levels deep is reported rather than overflowing the call stack. A bad
 * property name is reported on the object that holds it (its own text is unusable as a key).
 */
export function findUnstorableValues(root: unknown, maxDepth = MAX_JSON_DEPTH): UnstorableValue[] {
  const found: UnstorableValue[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = unstorableTextProblem(value);
      if (problem) found.push({ path, message: problem });
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) found.push({ path, message: 'Must be a finite number.' });
    } else if (value !== null && typeof value === 'object') {
      if (path.length >= maxDepth) {
        found.push({ path, message: `Nested too deeply (at most ${maxDepth} levels).` });
        continue;
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
      } else {
        const keys = Object.keys(value);
        for (const key of keys) {
          const problem = unstorableTextProblem(key);
          if (problem) found.push({ path, message: `Field names: ${problem[0]!.toLowerCase()}${problem.slice(1)}` });
        }
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i]!;
          if (unstorableTextProblem(key) === null) stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
        }
      }
    }
  }
  return found;
}
