// Paying an approved entry out in a payout batch, and reversing that when the batch is deleted.
// Both are idempotent for the same batch, so the shell can safely retry a half-finished batch.
import type { CommandContext } from '../decider.js';
import { conflict, validationError } from '../errors.js';
import { isDate } from '../shared/dates.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import { isPayoutMethod, PAYOUT_METHODS } from '../shared/payout-method.js';
import type { MarkTravelEntryPaidOut, ReverseTravelEntryPayout } from './commands.js';
import type { TravelEntryEvent } from './events.js';
import type { TravelEntry } from './state.js';
import { assertLegal } from './transitions.js';

export function decidePayOut(c: MarkTravelEntryPaidOut, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const { payoutBatchId, payoutMethod, payoutDate } = c.data;
  if (entry.isPaidOut && entry.payoutBatchId === payoutBatchId) return [];
  assertLegal(entry, 'payOut');
  const errors = new FieldErrorCollector();
  const method = isPayoutMethod(payoutMethod) ? payoutMethod : null;
  if (method === null) errors.add('payoutMethod', `Must be one of ${PAYOUT_METHODS.join(', ')}.`);
  if (!isDate(payoutDate)) errors.add('payoutDate', 'Must be a date (yyyy-MM-dd).');
  if (method === null || !errors.isEmpty) throw validationError(errors.errors);
  return [{ type: 'TravelEntryPaidOut', data: { entryId: entry.id, payoutBatchId, payoutMethod: method, payoutDate, at: ctx.now } }];
}

/** The entry goes back to Approved and unpaid; it stays locked because Approved is closed for writing. */
export function decideReversePayout(c: ReverseTravelEntryPayout, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const { payoutBatchId } = c.data;
  if (!entry.isPaidOut && entry.reversedPayoutBatchIds.includes(payoutBatchId)) return [];
  assertLegal(entry, 'reversePayout');
  if (entry.payoutBatchId !== payoutBatchId) {
    throw conflict('PAYOUT_BATCH_MISMATCH', 'The entry was paid out in another payout batch.', { payoutBatchId: entry.payoutBatchId });
  }
  return [{ type: 'TravelEntryPayoutReversed', data: { entryId: entry.id, payoutBatchId, at: ctx.now } }];
}
