// Runs the (pure) decision once before anything is written, so a command that the core rejects
// and a rate the provider lacks are reported together: the client fixes everything in one round.
// Only rate problems: 400 EXCHANGE_RATE_UNAVAILABLE; anything else as well: 400 VALIDATION_FAILED.
import { DomainError, validationError } from '../../domain/errors.js';
import type { CommandContext } from '../../domain/decider.js';
import { travelEntryDecider, type TravelEntryCommand, type TravelEntryState } from '../../domain/travel-entries/index.js';
import { EXCHANGE_RATE_UNAVAILABLE } from '../../rates/conversion.js';
import type { RateErrors } from './conversions.js';

export function checkEntryCommand(
  command: TravelEntryCommand,
  state: TravelEntryState,
  ctx: CommandContext,
  shellErrors: RateErrors,
  lookupErrors: Record<string, string[]> = {},
): void {
  let coreError: DomainError | undefined;
  try {
    travelEntryDecider.decide(command, state, ctx);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    coreError = err;
  }
  const hasLookup = Object.keys(lookupErrors).length > 0;
  if (coreError && coreError.code !== 'VALIDATION_FAILED') throw coreError; // locked, wrong transition, ...
  if (coreError || hasLookup) {
    const merged: Record<string, string[]> = { ...shellErrors.errors };
    for (const [k, v] of Object.entries({ ...(coreError?.errors ?? {}), ...lookupErrors })) (merged[k] ??= []).push(...v);
    throw validationError(merged);
  }
  if (!shellErrors.isEmpty) {
    throw new DomainError(
      EXCHANGE_RATE_UNAVAILABLE,
      400,
      'No exchange rate can be used for some rows; send a manual exchange rate where the provider publishes none.',
      shellErrors.errors,
    );
  }
}
