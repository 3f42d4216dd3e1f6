// The payout processes (docs/payouts.md). A batch is never written as one multi-stream append:
//   create:  PayoutBatchCreated (the request) -> reserve each entry on its own stream ->
//            PayoutBatchSettled (taken / rejected with reasons) -> release what this run paid
//            but the settlement does not hold (compensation).
//   delete:  PayoutBatchDeleted -> release each entry paid in the batch ->
//            PayoutBatchReversalCompleted.
// A process that stops anywhere (kill -9) is finished by `resumePayoutBatch` from the streams.
import type { CommandContext } from '../../domain/decider.js';
import { DomainError } from '../../domain/errors.js';
import {
  entriesToCompensate,
  isPaidIn,
  isReversalPending,
  isUnsettled,
  payoutBatchDecider,
  planPayoutBatchCreation,
  rejectionOf,
  settlementFor,
  type CreatePayoutBatch,
  type DeletePayoutBatch,
  type PayoutBatchState,
  type RejectedEntry,
} from '../../domain/payouts/index.js';
import type { TravelEntryState } from '../../domain/travel-entries/index.js';
import type { EventStore } from '../../eventstore/port.js';
import { batchStep, readBatch, readEntries, releaseEntry, reserveEntry, type StepContext } from './steps.js';
import { eachLimited } from '../each-limited.js';

export interface ProcessResult {
  batch: PayoutBatchState;
  steps: StepContext;
}

const stepContext = (store: EventStore, ctx: CommandContext, correlationId: string): StepContext => ({
  store,
  ctx,
  correlationId,
  positions: { batch: [], entries: [] },
  batchRevision: -1,
});

/**
 * POST a batch. The pre-check plans the whole batch on one snapshot: an unknown entry (400) or one
 * that cannot be paid (409) rejects the request before anything is written, as before. Entries
 * lost to a concurrent batch after the pre-check are rejected one by one with their reason.
 */
export async function createPayoutBatch(
  store: EventStore,
  command: CreatePayoutBatch,
  ctx: CommandContext,
  correlationId: string,
): Promise<ProcessResult> {
  const entries = await readEntries(store, [...new Set(command.data.entryIds)], ctx.tenantId);
  planPayoutBatchCreation(command, payoutBatchDecider.initialState(), entries, ctx);

  const s = stepContext(store, ctx, correlationId);
  const requested = await batchStep(s, command, { mustNotExist: true });
  if (requested.kind === 'Absent') throw new Error('unreachable: a created batch is present');
  const { batchId } = command.data;
  const outcomes = await eachLimited(command.data.entryIds, (entryId) => reserveEntry(s, entryId, requested.batch));

  const paid: string[] = [];
  const states = new Map<string, TravelEntryState | undefined>();
  const seen = new Map<string, RejectedEntry>();
  command.data.entryIds.forEach((entryId, i) => {
    const o = outcomes[i]!;
    if (o.ok && isPaidIn(o.state, batchId)) {
      paid.push(entryId);
      states.set(entryId, o.state);
    } else {
      states.set(entryId, undefined);
      seen.set(entryId, o.ok ? rejectionOf(entryId, o.state, batchId) : rejectionOf(entryId, entries.get(entryId), batchId, o.error));
    }
  });
  // A refused entry's fresh state names the batch that holds it (the pre-check's snapshot is older).
  const refused = [...seen.keys()];
  const fresh = await readEntries(store, refused, ctx.tenantId);
  for (const id of refused) {
    states.set(id, fresh.get(id));
    const again = rejectionOf(id, fresh.get(id), batchId);
    if (again.code === 'ALREADY_PAID_OUT') seen.set(id, again);
  }
  const settle = settlementFor(requested, states, seen)!;
  // Whoever settles first (this request, or a resumer that judged it dead) decides what the
  // batch holds; entries this run paid that it does not hold are released.
  const batch = await batchStep(s, settle);
  await eachLimited(entriesToCompensate(batch, paid), (id) => releaseEntry(s, id, batchId));
  if (isReversalPending(batch)) return finishReversal(s, batch);
  return { batch, steps: s };
}

/** DELETE a batch: record the deletion, then release every entry it paid. */
export async function deletePayoutBatch(
  store: EventStore,
  command: DeletePayoutBatch,
  ctx: CommandContext,
  correlationId: string,
  ifMatch?: number,
): Promise<ProcessResult> {
  const s = stepContext(store, ctx, correlationId);
  // If-Match names the batch's revision as its GET answered it (412 when it moved on).
  const batch = await batchStep(s, command, { ifMatch });
  return finishReversal(s, batch);
}

/**
 * Brings a batch whose process stopped to its end, from its streams alone: a requested batch is
 * settled with the entries paid in it (nothing more is paid: the client that asked was never
 * told the batch exists), a deleted one has its reversal completed. Idempotent.
 */
export async function resumePayoutBatch(
  store: EventStore,
  batchId: string,
  ctx: CommandContext,
  correlationId: string,
): Promise<ProcessResult> {
  const s = stepContext(store, ctx, correlationId);
  let batch = await readBatch(store, batchId, ctx.tenantId);
  if (isUnsettled(batch) && batch.kind !== 'Absent') {
    const entries = await readEntries(store, batch.batch.entryIds, ctx.tenantId);
    batch = await batchStep(s, settlementFor(batch, entries)!);
  }
  if (isReversalPending(batch)) return finishReversal(s, batch);
  return { batch, steps: s };
}

async function finishReversal(s: StepContext, batch: PayoutBatchState): Promise<ProcessResult> {
  if (batch.kind !== 'Deleted') return { batch, steps: s };
  const { id: batchId, entryIds } = batch.batch;
  // Every requested entry is visited, not only the taken ones: a deletion can overtake a
  // creation that is still paying. An entry not paid in this batch has nothing to release.
  const before = await readEntries(s.store, entryIds, s.ctx.tenantId);
  const toRelease = entryIds.filter((id) => isPaidIn(before.get(id), batchId) || reversedHere(before.get(id), batchId));
  const results = await eachLimited(toRelease, (id) => releaseEntry(s, id, batchId));
  const failed = results.flatMap((r, i) => (r.ok ? [] : [`${toRelease[i]}: ${r.error.message}`]));
  // An entry that could not be released keeps the reversal open: the resumer tries again.
  if (failed.length > 0)
    throw new DomainError('PAYOUT_REVERSAL_INCOMPLETE', `Some entries could not be released yet: ${failed.join('; ')}`);
  const done = await batchStep(s, { type: 'CompletePayoutBatchReversal', data: { batchId, reversedEntryIds: toRelease } });
  return { batch: done, steps: s };
}

const reversedHere = (state: TravelEntryState | undefined, batchId: string): boolean =>
  state?.kind === 'Existing' && state.entry.reversedPayoutBatchIds.includes(batchId);
