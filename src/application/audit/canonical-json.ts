// RFC 8785 (JSON Canonicalization Scheme) for the values events carry: byte for byte what the
// `canonicalize` package writes, four times faster on our events (docs/benchmarks.md, session 8).
// Why hand-written (docs/decisions.md, "Issue 11 figures"): `canonicalize` and the other RFC 8785
// packages were no faster; the one as fast (safe-stable-stringify) does not promise RFC 8785, and a
// hash chain's form may never change. On JSON data RFC 8785 is JSON.stringify with object keys in
// UTF-16 code-unit order:
// - strings: the RFC's escaping is ES JSON.stringify's (RFC 8785 3.2.2.2); a string with nothing to
//   escape is quoted as it is, the rest go through JSON.stringify;
// - numbers: ES Number-to-string (RFC 8785 3.2.2.3), which String() is for finite numbers;
// - key order: JavaScript's `<` on strings and Array.prototype.sort without a comparator both
//   compare UTF-16 code units, the RFC's order (3.2.3). Objects cannot be rebuilt in sorted order
//   and handed to JSON.stringify whole: JavaScript lists integer-like keys ("9", "10") first.
// What RFC 8785 forbids throws, as in `canonicalize`: non-finite numbers and lone surrogates (the
// API refuses both at its edge, src/domain/shared/storable-json.ts). test/audit/canonical-json.test.ts
// holds this function equal to `canonicalize` over arbitrary JSON values.

/** Characters JSON.stringify escapes, and surrogates (checked for pairing): the slow path. */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function quote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  if (LONE_SURROGATE.test(s)) throw new Error('Lone surrogate is not allowed in canonical JSON');
  return JSON.stringify(s);
}

/**
 * Quoted property names with their colon: events repeat a few dozen names, and looking one up costs
 * less than checking it for escapes again (a third of the walk). Bounded, so names a client makes up
 * (custom fields) cannot grow it without end; a name past the bound is quoted each time.
 */
const QUOTED_KEYS = new Map<string, string>();
const QUOTED_KEYS_MAX = 2_000;
const QUOTED_KEY_MAX_LENGTH = 64;

function quoteKey(key: string): string {
  let quoted = QUOTED_KEYS.get(key);
  if (quoted === undefined) {
    quoted = quote(key) + ':';
    if (QUOTED_KEYS.size < QUOTED_KEYS_MAX && key.length <= QUOTED_KEY_MAX_LENGTH) QUOTED_KEYS.set(key, quoted);
  }
  return quoted;
}

/** Sorts in place by UTF-16 code units; insertion sort, faster than Array.prototype.sort on an event's few keys. */
function sortKeys(keys: string[]): string[] {
  if (keys.length > 32) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

function write(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`${value} is not allowed in canonical JSON`);
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      // Dates and the like, as JSON.stringify and `canonicalize` treat them.
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return write((value as { toJSON(): unknown }).toJSON());
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (i > 0) out += ',';
          out += item === undefined || typeof item === 'symbol' ? 'null' : write(item);
        }
        return out + ']';
      }
      const record = value as Record<string, unknown>;
      let out = '{';
      for (const key of sortKeys(Object.keys(record))) {
        const v = record[key];
        if (v === undefined || typeof v === 'symbol') continue; // absent in JSON, as in JSON.stringify
        if (out.length > 1) out += ',';
        out += quoteKey(key) + write(v);
      }
      return out + '}';
    }
    default:
      throw new TypeError(`A ${typeof value} has no canonical JSON form`);
  }
}

/** The RFC 8785 form of a JSON value (strings, finite numbers, booleans, null, arrays, plain objects). */
export function canonicalJson(value: unknown): string {
  return write(value);
}
