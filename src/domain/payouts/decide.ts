// Payout-batch decisions on the batch stream alone. Whether each entry can be paid is decided by
// the travel-entry decider on the entry's own stream; outcome.ts turns those verdicts into the
// settlement recorded here.
import type { CommandContext } from '../decider.js';
import { conflict, notFound, validationError } from '../errors.js';
import { isDate } from '../shared/dates.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import { isPayoutMethod, PAYOUT_METHODS } from '../shared/payout-method.js';
import { optionalText } from '../shared/text.js';
import type { PayoutBatchCommand } from './commands.js';
import type { PayoutBatchEvent } from './events.js';
import { upgradeState, type PayoutBatchState } from './state.js';

/** A batch the size of a payroll run; larger runs are split by the client. */
export const MAX_ENTRIES_PER_BATCH = 500;
const EARLIEST_PAYOUT_DATE = '2000-01-01';

export function decide(command: PayoutBatchCommand, prior: PayoutBatchState, ctx: CommandContext): PayoutBatchEvent[] {
  const state = upgradeState(prior);
  switch (command.type) {
    case 'CreatePayoutBatch': {
      const { batchId, entryIds, payoutMethod, payoutDate } = command.data;
      if (state.kind !== 'Absent')
        throw conflict('PAYOUT_BATCH_ALREADY_EXISTS', 'A payout batch with this id already exists.', { batchId });
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
      else {
        // A payout dated before this century or more than a year ahead is a typo an ERP would book
        // as it stands (outside probe, session 21: 1800-01-01 was accepted).
        const latest = `${Number(ctx.now.slice(0, 4)) + 1}${ctx.now.slice(4, 10)}`;
        if (payoutDate < EARLIEST_PAYOUT_DATE || payoutDate > latest)
          errors.add('payoutDate', `Must be from ${EARLIEST_PAYOUT_DATE} to ${latest} (a year from today).`);
      }
      if (method === null || !errors.isEmpty) throw validationError(errors.errors);
      return [{ type: 'PayoutBatchCreated', data: { batchId, entryIds: [...entryIds], payoutMethod: method, payoutDate, at: ctx.now } }];
    }
    case 'SettlePayoutBatch': {
      if (state.kind === 'Absent') throw notFound('Payout batch');
      // The first settlement wins: a second resumer (or the request after a resumer) records
      // nothing and compensates whatever it paid that the settlement does not hold.
      if (state.kind !== 'Processing') return [];
      const requested = new Set(state.batch.entryIds);
      const { takenEntryIds, rejectedEntries } = command.data;
      const outcomes = [...takenEntryIds, ...rejectedEntries.map((r) => r.entryId)];
      if (outcomes.length !== requested.size || new Set(outcomes).size !== outcomes.length || outcomes.some((id) => !requested.has(id))) {
        throw conflict('PAYOUT_BATCH_SETTLEMENT_MISMATCH', 'A settlement names each requested entry exactly once.', {
          batchId: state.batch.id,
        });
      }
      // Requested order, so the answer lists entries the way the client asked for them.
      const taken = new Set(takenEntryIds);
      const byId = new Map(rejectedEntries.map((r) => [r.entryId, r]));
      return [
        {
          type: 'PayoutBatchSettled',
          data: {
            batchId: state.batch.id,
            takenEntryIds: state.batch.entryIds.filter((id) => taken.has(id)),
            rejectedEntries: state.batch.entryIds.flatMap((id) => byId.get(id) ?? []),
            at: ctx.now,
          },
        },
      ];
    }
    case 'DeletePayoutBatch': {
      if (state.kind === 'Absent') throw notFound('Payout batch');
      if (state.kind === 'Deleted') {
        throw conflict('PAYOUT_BATCH_DELETED', 'The payout batch has already been deleted.', {
          batchId: state.batch.id,
          deletedAt: state.batch.deletedAt,
        });
      }
      if (state.kind === 'Rejected') {
        throw conflict('PAYOUT_BATCH_REJECTED', 'The payout batch took no entry; there is nothing to reverse.', {
          batchId: state.batch.id,
        });
      }
      return [{ type: 'PayoutBatchDeleted', data: { batchId: state.batch.id, reason: optionalText(command.data.reason), at: ctx.now } }];
    }
    case 'CompletePayoutBatchReversal': {
      if (state.kind === 'Absent') throw notFound('Payout batch');
      if (state.kind !== 'Deleted' || state.batch.reversedEntryIds !== null) return [];
      return [
        {
          type: 'PayoutBatchReversalCompleted',
          data: { batchId: state.batch.id, reversedEntryIds: [...command.data.reversedEntryIds], at: ctx.now },
        },
      ];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}
