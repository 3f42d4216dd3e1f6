// Checks on a JSON request body beside the default parser's. The bytes must be UTF-8 (RFC 8259
// §8.1): decoding a bad byte yields U+FFFD, which would be stored in place of what the client sent.
// And a key that could reach an object's prototype (`__proto__`, or `constructor` holding a
// `prototype`), which the parser refuses, is named by its path as a field problem: the body is
// valid JSON, so "not valid JSON" would send the client looking for the wrong mistake. What the
// scan of the text finds before the parse (json-text-scan.ts: absurd nesting, a name given twice)
// is answered here too, keyed as every other 400 keys a field.
import { isUtf8 } from 'node:buffer';
import { DomainError } from '../domain/errors.js';
import { fieldOfSegments } from './problem.js';
import type { JsonPath, JsonTextScan } from '../domain/shared/json-text-scan.js';
import { MAX_JSON_DEPTH } from '../domain/shared/storable-json.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A removed operation answers 410 whatever it is sent: the no-body check leaves it alone. */
    anyBody?: boolean;
  }
}

const NOT_UTF8 = 'The body is not valid UTF-8.';
const PROTOTYPE_KEY = 'Not accepted as a field name.';

export function notUtf8Problem(bytes: Buffer): DomainError | undefined {
  return isUtf8(bytes) ? undefined : new DomainError('MALFORMED_JSON', NOT_UTF8, { body: [NOT_UTF8] });
}

/** The 400 naming each prototype key of `text` by its path; undefined when it has none (or is not JSON). */
export function prototypeKeyProblem(text: string): DomainError | undefined {
  let value: unknown;
  try {
    // An own `__proto__` property here, not the prototype. A BOM is skipped, as the parser does.
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  const paths: string[] = [];
  // A stack, not recursion: a body may nest 100,000 levels deep, and that is a 400, not a 500.
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, path] = next;
    if (Array.isArray(node)) node.forEach((item, i) => pending.push([item, `${path}[${i}]`]));
    else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        const at = path === '' ? key : `${path}.${key}`;
        const reachesPrototype =
          key === '__proto__' ||
          (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype'));
        if (reachesPrototype) paths.push(at);
        else pending.push([child, at]);
      }
    }
  }
  if (paths.length === 0) return undefined;
  return new DomainError('VALIDATION_FAILED', 'The request is invalid.', Object.fromEntries(paths.sort().map((p) => [p, [PROTOTYPE_KEY]])));
}

/** A JSON path as a 400's `errors` name fields (problem.ts); the whole body is `body`. */
const fieldKey = (path: JsonPath): string => fieldOfSegments(path) || 'body';

const REPEATED_NAME = 'Given more than once in its object; send each field once.';

/**
 * The 400 for text nested deeper than any value the API takes, to answer before it is parsed
 * (parsing it costs the shared thread up to 400 ms): the same message and field as the check on
 * the parsed value.
 */
export function tooDeepProblem(scan: JsonTextScan): DomainError | undefined {
  if (scan.tooDeep === undefined) return undefined;
  return new DomainError('VALIDATION_FAILED', 'The request is invalid.', {
    [fieldKey(scan.tooDeep)]: [`Nested too deeply (at most ${MAX_JSON_DEPTH} levels).`],
  });
}

/** The 400 for a name given twice in one object, to answer once the text has parsed as JSON. */
export function repeatedNameProblem(scan: JsonTextScan): DomainError | undefined {
  if (scan.repeatedName === undefined) return undefined;
  return new DomainError('VALIDATION_FAILED', 'The request is invalid.', { [fieldKey(scan.repeatedName)]: [REPEATED_NAME] });
}

const NO_BODY = 'This operation takes no body: send none, or {}.';

/**
 * On an operation that declares no body, what a parsed body may be: nothing to read (`{}` or
 * `null`, which many clients send with every POST), else a 400 naming what the server would have
 * ignored. A field sent where none is read is a client's mistake, like an unknown field elsewhere.
 */
export function bodyNotTakenProblem(value: unknown): DomainError | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    return new DomainError('VALIDATION_FAILED', 'The request is invalid.', { body: [NO_BODY] });
  const names = Object.keys(value);
  if (names.length === 0) return undefined;
  return new DomainError(
    'VALIDATION_FAILED',
    'The request is invalid.',
    Object.fromEntries(names.map((n) => [n, [`Unknown field. ${NO_BODY}`]])),
  );
}
