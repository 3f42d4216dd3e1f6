// The multi-stream payout flow (see src/domain/payouts/plan.ts): load the batch and its entries,
// plan every event purely, append the batch's events, then each entry's. Entry events are
// idempotent per batch, so a conflict on an entry (someone else wrote it meanwhile) is settled by
// reloading it and planning again; a rejected batch has written nothing.
import { randomUUID } from 'node:crypto';
import pRetry from 'p-retry';
import type { CommandContext } from '../../domain/decider.js';
import { DomainError } from '../../domain/errors.js';
import {
  entryEventsToSettle, payoutBatchDecider, planPayoutBatchCreation, planPayoutBatchDeletion, streamName as batchStream,
  type CreatePayoutBatch, type DeletePayoutBatch, type PayoutBatchState, type PayoutPlan,
} from '../../domain/payouts/index.js';
import { streamName as entryStream, travelEntryDecider, type TravelEntryEvent, type TravelEntryState } from '../../domain/travel-entries/index.js';
import type { DomainEvent } from '../../domain/decider.js';
import { WrongExpectedVersionError, type EventStore, type Position } from '../../eventstore/port.js';

interface Loaded<S> { state: S; revision: number | undefined }

async function load<S, E extends DomainEvent>(store: EventStore, streamId: string, tenantId: string, d: { initialState(): S; evolve(s: S, e: E): S }): Promise<Loaded<S>> {
  const events = await store.readStream(streamId);
  // Another tenant's stream reads as absent: its existence is never revealed.
  if (events.length === 0 || events[0]!.metadata.tenantId !== tenantId) return { state: d.initialState(), revision: undefined };
  return { state: events.reduce((s, e) => d.evolve(s, { type: e.type, data: e.data } as E), d.initialState()), revision: events[events.length - 1]!.revision };
}

const loadEntry = (store: EventStore, id: string, tenantId: string) => load<TravelEntryState, TravelEntryEvent>(store, entryStream(id), tenantId, travelEntryDecider);
const loadBatch = (store: EventStore, id: string, tenantId: string) => load(store, batchStream(id), tenantId, payoutBatchDecider);

function toNew(events: DomainEvent[], ctx: CommandContext, correlationId: string) {
  const causationId = randomUUID();
  return events.map((e) => ({
    id: randomUUID(), type: e.type, data: e.data,
    metadata: { tenantId: ctx.tenantId, actor: ctx.actor, correlationId, causationId, occurredAt: ctx.now },
  }));
}

async function loadEntries(store: EventStore, ids: string[], tenantId: string): Promise<Map<string, Loaded<TravelEntryState>>> {
  const loaded = await Promise.all(ids.map(async (id) => [id, await loadEntry(store, id, tenantId)] as const));
  return new Map(loaded);
}

const states = (m: Map<string, Loaded<TravelEntryState>>) => new Map([...m].map(([id, l]) => [id, l.state]));

/** Appends the plan; returns the positions written, for read-your-writes. */
async function execute(store: EventStore, batchId: string, batchRevision: number | undefined, plan: PayoutPlan,
  entries: Map<string, Loaded<TravelEntryState>>, ctx: CommandContext, correlationId: string): Promise<{ batchPosition: Position; entryPositions: Position[]; batch: PayoutBatchState }> {
  const batchResult = await store.appendToStream(batchStream(batchId), toNew(plan.batchEvents, ctx, correlationId), batchRevision ?? 'no_stream');
  const batchState = (await loadBatch(store, batchId, ctx.tenantId)).state;
  const entryPositions: Position[] = [];
  for (const { entryId, events } of plan.entryEvents) {
    let pending = events;
    let revision = entries.get(entryId)!.revision;
    await pRetry(async () => {
      try {
        const r = await store.appendToStream(entryStream(entryId), toNew(pending, ctx, correlationId), revision ?? 'no_stream');
        entryPositions.push(r.position);
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError)) throw err;
        const fresh = await loadEntry(store, entryId, ctx.tenantId);
        revision = fresh.revision;
        pending = entryEventsToSettle(batchState, new Map([[entryId, fresh.state]]), ctx).find((x) => x.entryId === entryId)?.events ?? [];
        if (pending.length > 0) throw err; // retry with the fresh plan
      }
    }, { retries: 5, minTimeout: 5, maxTimeout: 50, shouldRetry: ({ error }) => error instanceof WrongExpectedVersionError });
  }
  return { batchPosition: batchResult.position, entryPositions, batch: batchState };
}

export async function createPayoutBatch(store: EventStore, command: CreatePayoutBatch, ctx: CommandContext, correlationId: string) {
  const entries = await loadEntries(store, [...new Set(command.data.entryIds)], ctx.tenantId);
  const plan = planPayoutBatchCreation(command, payoutBatchDecider.initialState(), states(entries), ctx);
  return execute(store, command.data.batchId, undefined, plan, entries, ctx, correlationId);
}

export async function deletePayoutBatch(store: EventStore, command: DeletePayoutBatch, ctx: CommandContext, correlationId: string) {
  const batch = await loadBatch(store, command.data.batchId, ctx.tenantId);
  if (batch.state.kind === 'Absent') throw new DomainError('NOT_FOUND', 404, 'Payout batch was not found.');
  const entries = await loadEntries(store, batch.state.batch.entryIds, ctx.tenantId);
  const plan = planPayoutBatchDeletion(command, batch.state, states(entries), ctx);
  return execute(store, command.data.batchId, batch.revision, plan, entries, ctx, correlationId);
}
