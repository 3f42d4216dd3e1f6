// The steps of the payout processes, one stream each, every one through handleCommand (load,
// fold, tenant check, decide, append at the read revision, retry on conflict). Each step is
// idempotent, so a process that is repeated (a resumer after a crash, two resumers at once)
// records nothing twice.
import type { CommandContext } from '../../domain/decider.js';
import { DomainError } from '../../domain/errors.js';
import {
  payoutBatchDecider,
  streamName as batchStream,
  type PayoutBatchCommand,
  type PayoutBatchState,
} from '../../domain/payouts/index.js';
import { streamName as entryStream, travelEntryDecider, type TravelEntryState } from '../../domain/travel-entries/index.js';
import type { EventStore, Position } from '../../eventstore/port.js';
import { handleCommand, loadStream } from '../command-handler.js';
import { eachLimited } from '../each-limited.js';

export interface StepContext {
  store: EventStore;
  ctx: CommandContext;
  correlationId: string;
  /** Every position written, so the caller can wait for its projections (read-your-writes). */
  positions: { batch: Position[]; entries: Position[] };
  /** The batch stream's revision after the last batch step (the ETag of the answer). */
  batchRevision: number;
}

export async function batchStep(
  s: StepContext,
  command: PayoutBatchCommand,
  opts: { mustNotExist?: boolean; ifMatch?: number | undefined } = {},
): Promise<PayoutBatchState> {
  const r = await handleCommand(s.store, {
    streamId: batchStream(command.data.batchId),
    decider: payoutBatchDecider,
    command,
    context: s.ctx,
    correlationId: s.correlationId,
    ...(opts.mustNotExist ? { mustNotExist: true } : { mustExist: { notFoundMessage: 'Payout batch was not found.' } }),
    ifMatch: opts.ifMatch,
  });
  if (r.position) s.positions.batch.push(r.position);
  s.batchRevision = r.revision;
  return r.state;
}

export type EntryStepResult = { ok: true; state: TravelEntryState } | { ok: false; error: DomainError };

/**
 * Reserves the entry for the batch: TravelEntryPaidOut{payoutBatchId} at the entry's revision.
 * The entry decider refuses an entry paid in another batch, and records nothing for one already
 * paid in this batch. A refusal is an outcome, not a failure of the process.
 */
export function reserveEntry(
  s: StepContext,
  entryId: string,
  batch: { id: string; payoutMethod: string; payoutDate: string },
): Promise<EntryStepResult> {
  return entryStep(s, entryId, {
    type: 'MarkTravelEntryPaidOut',
    data: { entryId, payoutBatchId: batch.id, payoutMethod: batch.payoutMethod, payoutDate: batch.payoutDate },
  });
}

/** Undoes this batch's payout of the entry; records nothing once reversed. */
export function releaseEntry(s: StepContext, entryId: string, batchId: string): Promise<EntryStepResult> {
  return entryStep(s, entryId, { type: 'ReverseTravelEntryPayout', data: { entryId, payoutBatchId: batchId } });
}

async function entryStep(
  s: StepContext,
  entryId: string,
  command: Parameters<typeof travelEntryDecider.decide>[0],
): Promise<EntryStepResult> {
  try {
    const r = await handleCommand(s.store, {
      streamId: entryStream(entryId),
      decider: travelEntryDecider,
      command,
      context: s.ctx,
      correlationId: s.correlationId,
      mustExist: { notFoundMessage: 'No such travel entry.' },
    });
    if (r.position) s.positions.entries.push(r.position);
    return { ok: true, state: r.state };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, error };
    throw error;
  }
}

/** The current state of each entry, for settling (reads only; another tenant's entry reads as absent). */
export async function readEntries(store: EventStore, ids: readonly string[], tenantId: string): Promise<Map<string, TravelEntryState>> {
  // Another tenant's entry is `foreign`, and its state the initial one: it reads as absent.
  const states = await eachLimited(ids, async (id) => (await loadStream(store, entryStream(id), travelEntryDecider, tenantId)).state);
  return new Map(ids.map((id, i) => [id, states[i]!]));
}

/** The batch as stored; another tenant's batch reads as absent. */
export async function readBatch(store: EventStore, batchId: string, tenantId: string): Promise<PayoutBatchState> {
  return (await loadStream(store, batchStream(batchId), payoutBatchDecider, tenantId)).state;
}
