// A payout batch spans streams: the batch's own and one per entry. These pure helpers plan the
// whole flow from one snapshot of the streams. The shell uses the plan as the PRE-CHECK of a
// request (an entry that cannot be paid, or an unknown id, rejects the request before anything is
// written); the writes themselves are the per-stream steps of src/application/payouts, which
// re-decide every entry on its own stream at its own revision (see docs/payouts.md).
import type { CommandContext } from '../decider.js';
import { conflict, DomainError, validationError } from '../errors.js';
import type { FieldErrors } from '../errors.js';
import { isLegal, travelEntryDecider, type TravelEntryEvent, type TravelEntryState } from '../travel-entries/index.js';
import type { CreatePayoutBatch, DeletePayoutBatch } from './commands.js';
import { decide } from './decide.js';
import type { PayoutBatchEvent } from './events.js';
import { isPaidIn, rejectionOf } from './outcome.js';
import { evolve, type PayoutBatchState } from './state.js';

export interface EntryEvents {
  entryId: string;
  events: TravelEntryEvent[];
}

export interface PayoutPlan {
  batchEvents: PayoutBatchEvent[];
  /** Only entries with something to record. */
  entryEvents: EntryEvents[];
}

/** Listed by GET "ready for payout": approved, not paid out, not locked by a legacy import. */
export function isReadyForPayout(state: TravelEntryState): boolean {
  return state.kind === 'Existing' && !state.entry.importLocked && isLegal(state.entry, 'payOut');
}

/** Unknown ids in a new batch are the client's mistake: 400 keyed by their position in `entryIds`. */
function assertAllExist(entryIds: readonly string[], entries: ReadonlyMap<string, TravelEntryState>): void {
  const unknown: FieldErrors = {};
  entryIds.forEach((id, i) => {
    if (entries.get(id)?.kind !== 'Existing') unknown[`entryIds[${i}]`] = ['No such travel entry.'];
  });
  if (Object.keys(unknown).length > 0) throw validationError(unknown);
}

/** The entry's own error, with the entry named so the client knows which one blocked the batch. */
function forEntry(error: unknown, entryId: string, state: TravelEntryState): unknown {
  if (!(error instanceof DomainError)) return error;
  const label = state.kind === 'Existing' ? state.entry.entryNumber : entryId;
  return new DomainError(error.code, `Entry ${label}: ${error.message}`, error.errors, { ...error.extra, entryId });
}

/**
 * An entry that another batch holds is refused in the words a lost race uses (the rejected
 * entry's `ALREADY_PAID_OUT`, naming the holder), so a client reads one reason for one
 * situation, whether the pre-check or the entry's stream saw it first.
 */
function refuseIfPaidElsewhere(entryId: string, state: TravelEntryState, payoutBatchId: string): void {
  const rejected = rejectionOf(entryId, state, payoutBatchId);
  if (rejected.code !== 'ALREADY_PAID_OUT' || state.kind !== 'Existing') return;
  throw conflict('ALREADY_PAID_OUT', `Entry ${state.entry.entryNumber}: ${rejected.reason}`, {
    entryId,
    payoutBatchId: rejected.payoutBatchId,
  });
}

/**
 * The entry events that bring every entry of the batch in line with it: paid out in this batch
 * while it exists, no longer paid out once it is deleted. Empty when all are settled.
 */
export function entryEventsToSettle(
  batch: PayoutBatchState,
  entries: ReadonlyMap<string, TravelEntryState>,
  ctx: CommandContext,
): EntryEvents[] {
  if (batch.kind === 'Absent' || batch.kind === 'Rejected') return [];
  // A requested batch pays every entry it asked for; a settled one holds exactly its taken ones.
  const paying = batch.kind === 'Processing' || batch.kind === 'Created';
  if (batch.kind === 'Processing') assertAllExist(batch.batch.entryIds, entries);

  const { id: payoutBatchId, payoutMethod, payoutDate } = batch.batch;
  const ids = batch.kind === 'Created' ? (batch.batch.takenEntryIds ?? []) : batch.batch.entryIds;
  return (
    ids
      // A deleted batch reverses only the payouts it made: an entry a crashed creation never
      // reached, or one since paid by another batch, is left alone.
      .filter((entryId) => paying || isPaidIn(entries.get(entryId), payoutBatchId))
      .map((entryId) => {
        const state = entries.get(entryId) ?? travelEntryDecider.initialState();
        if (paying) refuseIfPaidElsewhere(entryId, state, payoutBatchId);
        const command = paying
          ? { type: 'MarkTravelEntryPaidOut' as const, data: { entryId, payoutBatchId, payoutMethod, payoutDate } }
          : { type: 'ReverseTravelEntryPayout' as const, data: { entryId, payoutBatchId } };
        try {
          return { entryId, events: travelEntryDecider.decide(command, state, ctx) };
        } catch (error) {
          throw forEntry(error, entryId, state);
        }
      })
      .filter((e) => e.events.length > 0)
  );
}

function plan(
  batchEvents: PayoutBatchEvent[],
  before: PayoutBatchState,
  entries: ReadonlyMap<string, TravelEntryState>,
  ctx: CommandContext,
): PayoutPlan {
  const after = batchEvents.reduce(evolve, before);
  return { batchEvents, entryEvents: entryEventsToSettle(after, entries, ctx) };
}

/** POST a batch: PayoutBatchCreated plus TravelEntryPaidOut for each entry; throws if any entry cannot be paid. */
export function planPayoutBatchCreation(
  command: CreatePayoutBatch,
  batch: PayoutBatchState,
  entries: ReadonlyMap<string, TravelEntryState>,
  ctx: CommandContext,
): PayoutPlan {
  return plan(decide(command, batch, ctx), batch, entries, ctx);
}

/** DELETE a batch: PayoutBatchDeleted plus TravelEntryPayoutReversed for each entry it paid. */
export function planPayoutBatchDeletion(
  command: DeletePayoutBatch,
  batch: PayoutBatchState,
  entries: ReadonlyMap<string, TravelEntryState>,
  ctx: CommandContext,
): PayoutPlan {
  return plan(decide(command, batch, ctx), batch, entries, ctx);
}
