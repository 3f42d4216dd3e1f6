// Facts the shell looked up before deciding (exchange rates, whether the employee exists) travel in
// the command, and the decider judges them together with its own checks, so a client sees every
// problem of a request in one answer and the decision is made once:
//  - a core refusal that is not a validation problem (locked, wrong transition) wins as it is;
//  - core validation problems or lookup problems: 400 VALIDATION_FAILED with all of them, the rate
//    problems included;
//  - per-diem rows without a statutory amount: 400 PER_DIEM_RATE_UNAVAILABLE naming them;
//  - only rate problems: 400 EXCHANGE_RATE_UNAVAILABLE naming the rows.
import { messagesAt } from '../shared/field-errors.js';
import { DomainError, validationError, type FieldErrors } from '../errors.js';

export const EXCHANGE_RATE_UNAVAILABLE = 'EXCHANGE_RATE_UNAVAILABLE';

export interface LookedUpFacts {
  /** Rows whose exchange rate could not be used (the provider publishes none, or a manual rate is refused). */
  rateErrors?: FieldErrors;
  /** Fields that name something that does not exist for this tenant (an unknown employee). */
  lookupErrors?: FieldErrors;
  /** Per-diem rows for whose destination and date no statutory amount is known. */
  perDiemRateErrors?: FieldErrors;
}

export function judgeWithFacts<E>(facts: LookedUpFacts | undefined, decide: () => E[]): E[] {
  const rateErrors = facts?.rateErrors ?? {};
  const lookupErrors = facts?.lookupErrors ?? {};
  let events: E[] = [];
  let coreError: DomainError | undefined;
  try {
    events = decide();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    coreError = err;
  }
  if (coreError && coreError.code !== 'VALIDATION_FAILED') throw coreError;
  if (coreError || Object.keys(lookupErrors).length > 0) {
    // Rate problems first; a field the core and a lookup both name keeps the lookup's words.
    const merged: FieldErrors = Object.fromEntries(Object.entries(rateErrors).map(([k, v]) => [k, [...v]]));
    for (const [k, v] of Object.entries({ ...(coreError?.errors ?? {}), ...lookupErrors })) messagesAt(merged, k).push(...v);
    throw validationError(merged);
  }
  const perDiemRateErrors = facts?.perDiemRateErrors ?? {};
  if (Object.keys(perDiemRateErrors).length > 0) {
    throw new DomainError('PER_DIEM_RATE_UNAVAILABLE', 'No statutory per-diem amount is known for some rows; it is never guessed.', {
      ...perDiemRateErrors,
      ...rateErrors,
    });
  }
  if (Object.keys(rateErrors).length > 0) {
    throw new DomainError(
      EXCHANGE_RATE_UNAVAILABLE,
      'No exchange rate can be used for some rows; send a manual exchange rate where the provider publishes none.',
      rateErrors,
    );
  }
  return events;
}
