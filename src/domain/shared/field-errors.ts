// Collects every field problem of a command before failing, so a client sees all of them at once
// (problem+json `errors` keyed by field path, e.g. `expenses[1].amount`).
import { validationError, type FieldErrors } from '../errors.js';

/**
 * The messages of `key` in a map of field errors, created empty when absent. A key is the client's
 * text (an unknown field's name), so it may be `constructor` or `__proto__`: an own property is
 * looked up and defined, never one inherited from Object.prototype or its setter.
 */
export function messagesAt(errors: Record<string, string[]>, key: string): string[] {
  if (Object.hasOwn(errors, key)) return errors[key]!;
  const messages: string[] = [];
  Object.defineProperty(errors, key, { value: messages, enumerable: true, writable: true, configurable: true });
  return messages;
}

export class FieldErrorCollector {
  readonly errors: FieldErrors = {};

  add(path: string, message: string): void {
    messagesAt(this.errors, path).push(message);
  }

  /** Records the problem when there is one; returns true when the value was fine. */
  check(path: string, problem: string | null): boolean {
    if (problem !== null) this.add(path, problem);
    return problem === null;
  }

  get isEmpty(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  throwIfAny(): void {
    if (!this.isEmpty) throw validationError(this.errors);
  }
}

/**
 * The key of field `name` of `parent` in a 400's `errors`: a request body's own fields are named bare
 * (`countryCode`), as the schema's issues are, and a nested row's are dotted (`perDiems[0].countryCode`).
 */
export const fieldIn = (parent: string, name: string): string => (parent === 'body' ? name : `${parent}.${name}`);
