// Payout-batch decisions on the batch stream alone. Whether each entry can be paid is decided by
// the travel-entry decider; plan.ts combines both for the shell.
import type { CommandContext } from '../decider.js';
import { conflict, notFound, validationError } from '../errors.js';
import { isDate } from '../shared/dates.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import { isPayoutMethod, PAYOUT_METHODS } from '../shared/payout-method.js';
import { optionalText } from '../shared/text.js';
import type { PayoutBatchCommand } from './commands.js';
import type { PayoutBatchEvent } from './events.js';
import type { PayoutBatchState } from './state.js';

/** A batch the size of a payroll run; larger runs are split by the client. */
export const MAX_ENTRIES_PER_BATCH = 500;

export function decide(command: PayoutBatchCommand, state: PayoutBatchState, ctx: CommandContext): PayoutBatchEvent[] {
  switch (command.type) {
    case 'CreatePayoutBatch': {
      const { batchId, entryIds, payoutMethod, payoutDate } = command.data;
      if (state.kind !== 'Absent') throw conflict('PAYOUT_BATCH_ALREADY_EXISTS', 'A payout batch with this id already exists.', { batchId });
      const errors = new FieldErrorCollector();
      if (entryIds.length === 0) errors.add('entryIds', 'At least one entry.');
      if (entryIds.length > MAX_ENTRIES_PER_BATCH) errors.add('entryIds', `At most ${MAX_ENTRIES_PER_BATCH} entries per batch.`);
      const seen = new Set<string>();
      entryIds.forEach((id, i) => {
        if (seen.has(id)) errors.add(`entryIds[${i}]`, 'Each entry appears once.');
        seen.add(id);
      });
      const method = isPayoutMethod(payoutMethod) ? payoutMethod : null;
      if (method === null) errors.add('payoutMethod', `Must be one of ${PAYOUT_METHODS.join(', ')}.`);
      if (!isDate(payoutDate)) errors.add('payoutDate', 'Must be a date (yyyy-MM-dd).');
      if (method === null || !errors.isEmpty) throw validationError(errors.errors);
      return [{ type: 'PayoutBatchCreated', data: { batchId, entryIds: [...entryIds], payoutMethod: method, payoutDate, at: ctx.now } }];
    }
    case 'DeletePayoutBatch': {
      if (state.kind === 'Absent') throw notFound('Payout batch');
      if (state.kind === 'Deleted') {
        throw conflict('PAYOUT_BATCH_DELETED', 'The payout batch has already been deleted.', { batchId: state.batch.id, deletedAt: state.batch.deletedAt });
      }
      return [{ type: 'PayoutBatchDeleted', data: { batchId: state.batch.id, reason: optionalText(command.data.reason), at: ctx.now } }];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}
