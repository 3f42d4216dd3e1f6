// A delete of an organization resource (department, vehicle, cost center) that something still
// names: 409 RESOURCE_IN_USE with the counts by kind (`references: { employees: 3 }`). Archiving is
// the way out and is always allowed.
import { messagesAt } from './field-errors.js';
import { conflict, DomainError, validationError, type FieldErrors } from '../errors.js';

export function resourceInUse(what: string, references: Record<string, number>): void {
  const inUse = Object.fromEntries(Object.entries(references).filter(([, n]) => n > 0));
  const total = Object.values(inUse).reduce((a, b) => a + b, 0);
  if (total === 0) return;
  const named = Object.entries(inUse)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  throw conflict('RESOURCE_IN_USE', `${what} is still referenced (${named}); archive it instead.`, { references: inUse });
}

/**
 * Decides with the shell's lookup problems (a reference to something that is not an active record of
 * the tenant): the core's validation problems and the lookup's are one 400 VALIDATION_FAILED; any
 * other refusal of the core wins as it is.
 */
export function judgeWithLookups<E>(lookupErrors: FieldErrors, decide: () => E[]): E[] {
  let events: E[] = [];
  let core: DomainError | undefined;
  try {
    events = decide();
  } catch (err) {
    if (!(err instanceof DomainError) || err.code !== 'VALIDATION_FAILED') throw err;
    core = err;
  }
  if (core || Object.keys(lookupErrors).length > 0) {
    const merged: FieldErrors = {};
    for (const [k, v] of Object.entries({ ...(core?.errors ?? {}), ...lookupErrors })) messagesAt(merged, k).push(...v);
    throw validationError(merged);
  }
  return events;
}
