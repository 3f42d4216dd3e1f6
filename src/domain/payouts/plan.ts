// A payout batch spans streams: the batch's own and one per entry. These pure helpers compute
// every event of the flow so the shell only loads, appends and retries:
//   1. load the batch stream and every named entry stream (by the batch's entryIds);
//   2. plan: the batch events plus, per entry, TravelEntryPaidOut (create) or
//      TravelEntryPayoutReversed (delete), all decided BEFORE anything is written, so an entry
//      that cannot be paid rejects the whole batch;
//   3. append the batch events, then each entry's events (one transaction where the store allows).
// Entry decisions are idempotent per batch, so after a crash between appends the shell calls
// `entryEventsToSettle` with the stored batch to finish the job without duplicating anything.
import type { CommandContext } from '../decider.js';
import { DomainError, validationError } from '../errors.js';
import type { FieldErrors } from '../errors.js';
import { isLegal, travelEntryDecider, type TravelEntryEvent, type TravelEntryState } from '../travel-entries/index.js';
import type { CreatePayoutBatch, DeletePayoutBatch } from './commands.js';
import { decide } from './decide.js';
import type { PayoutBatchEvent } from './events.js';
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

const paidInBatch = (state: TravelEntryState | undefined, batchId: string): boolean =>
  state?.kind === 'Existing' && state.entry.isPaidOut && state.entry.payoutBatchId === batchId;

/** The entry's own error, with the entry named so the client knows which one blocked the batch. */
function forEntry(error: unknown, entryId: string, state: TravelEntryState): unknown {
  if (!(error instanceof DomainError)) return error;
  const label = state.kind === 'Existing' ? state.entry.entryNumber : entryId;
  return new DomainError(error.code, error.status, `Entry ${label}: ${error.message}`, error.errors, { ...error.extra, entryId });
}

/**
 * The entry events that bring every entry of the batch in line with it: paid out in this batch
 * while it exists, no longer paid out once it is deleted. Empty when all are settled.
 */
export function entryEventsToSettle(batch: PayoutBatchState, entries: ReadonlyMap<string, TravelEntryState>, ctx: CommandContext): EntryEvents[] {
  if (batch.kind === 'Absent') return [];
  if (batch.kind === 'Created') assertAllExist(batch.batch.entryIds, entries);

  const { id: payoutBatchId, payoutMethod, payoutDate } = batch.batch;
  return batch.batch.entryIds
    // A deleted batch reverses only the payouts it made: an entry a crashed creation never
    // reached, or one since paid by another batch, is left alone.
    .filter((entryId) => batch.kind === 'Created' || paidInBatch(entries.get(entryId), payoutBatchId))
    .map((entryId) => {
      const state = entries.get(entryId) ?? travelEntryDecider.initialState();
      const command = batch.kind === 'Created'
        ? { type: 'MarkTravelEntryPaidOut' as const, data: { entryId, payoutBatchId, payoutMethod, payoutDate } }
        : { type: 'ReverseTravelEntryPayout' as const, data: { entryId, payoutBatchId } };
      try {
        return { entryId, events: travelEntryDecider.decide(command, state, ctx) };
      } catch (error) {
        throw forEntry(error, entryId, state);
      }
    })
    .filter((e) => e.events.length > 0);
}

function plan(batchEvents: PayoutBatchEvent[], before: PayoutBatchState, entries: ReadonlyMap<string, TravelEntryState>, ctx: CommandContext): PayoutPlan {
  const after = batchEvents.reduce(evolve, before);
  return { batchEvents, entryEvents: entryEventsToSettle(after, entries, ctx) };
}

/** POST a batch: PayoutBatchCreated plus TravelEntryPaidOut for each entry; throws if any entry cannot be paid. */
export function planPayoutBatchCreation(command: CreatePayoutBatch, batch: PayoutBatchState, entries: ReadonlyMap<string, TravelEntryState>, ctx: CommandContext): PayoutPlan {
  return plan(decide(command, batch, ctx), batch, entries, ctx);
}

/** DELETE a batch: PayoutBatchDeleted plus TravelEntryPayoutReversed for each entry it paid. */
export function planPayoutBatchDeletion(command: DeletePayoutBatch, batch: PayoutBatchState, entries: ReadonlyMap<string, TravelEntryState>, ctx: CommandContext): PayoutPlan {
  return plan(decide(command, batch, ctx), batch, entries, ctx);
}
