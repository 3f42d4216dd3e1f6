// Per-entry outcomes of a batch process, read from the entry streams (the source of truth for
// "which batch pays this entry"), and what a process must undo when it lost.
import { DomainError } from '../errors.js';
import type { TravelEntryState } from '../travel-entries/index.js';
import type { SettlePayoutBatch } from './commands.js';
import type { RejectedEntry } from './events.js';
import type { PayoutBatchState } from './state.js';

export const isPaidIn = (state: TravelEntryState | undefined, batchId: string): boolean =>
  state?.kind === 'Existing' && state.entry.isPaidOut && state.entry.payoutBatchId === batchId;

/**
 * Why an entry is not in the batch, in the entry's own terms: another batch that holds it is
 * named (never a misleading "no such entry" for an entry that exists), then the decider's
 * refusal, and for an entry the process never reached, that.
 */
export function rejectionOf(entryId: string, state: TravelEntryState | undefined, batchId: string, error?: unknown): RejectedEntry {
  if (state?.kind !== 'Existing') return { entryId, code: 'NOT_FOUND', reason: 'No such travel entry.' };
  const { isPaidOut, payoutBatchId } = state.entry;
  if (isPaidOut && payoutBatchId !== null && payoutBatchId !== batchId) {
    return { entryId, code: 'ALREADY_PAID_OUT', reason: `Already paid out in payout batch ${payoutBatchId}.`, payoutBatchId };
  }
  if (error instanceof DomainError) return { entryId, code: error.code, reason: error.message };
  return {
    entryId,
    code: 'NOT_REACHED',
    reason: 'The batch process stopped before it paid this entry out; the entry was not paid in this batch.',
  };
}

/**
 * The settlement of a batch from the entries' current states: every requested entry paid in
 * this batch is taken, every other one is rejected (with the reason the process saw, when it
 * saw one, else the one its state gives).
 */
export function settlementFor(
  batch: PayoutBatchState,
  entries: ReadonlyMap<string, TravelEntryState | undefined>,
  seen: ReadonlyMap<string, RejectedEntry> = new Map(),
): SettlePayoutBatch | undefined {
  if (batch.kind === 'Absent') return undefined;
  const { id: batchId, entryIds } = batch.batch;
  const takenEntryIds = entryIds.filter((id) => isPaidIn(entries.get(id), batchId));
  const rejectedEntries = entryIds
    .filter((id) => !isPaidIn(entries.get(id), batchId))
    .map((id) => {
      const fresh = rejectionOf(id, entries.get(id), batchId);
      // A fresh "paid elsewhere" beats an older reason; otherwise keep what the process saw.
      return fresh.code === 'ALREADY_PAID_OUT' ? fresh : (seen.get(id) ?? fresh);
    });
  return { type: 'SettlePayoutBatch', data: { batchId, takenEntryIds, rejectedEntries } };
}

/**
 * Entries a process paid in this batch that the batch, as recorded, does not hold: a settlement
 * written first by someone else, or a deletion. They are reversed (compensation).
 */
export function entriesToCompensate(batch: PayoutBatchState, paidByThisProcess: readonly string[]): string[] {
  if (batch.kind === 'Absent' || batch.kind === 'Processing') return [];
  if (batch.kind === 'Created') {
    const held = new Set(batch.batch.takenEntryIds ?? []);
    return paidByThisProcess.filter((id) => !held.has(id));
  }
  return [...paidByThisProcess];
}
