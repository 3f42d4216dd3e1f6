// Entry numbers, per tenant and year, gap-free (`2026-00042`). Each tenant-year is a stream of
// EntryNumberReserved events appended at the exact expected revision, so two concurrent creates
// can never take the same number and the sequence is auditable: every number names its entry.
// A number is reserved only after the create passed every check, so a rejected create leaves no
// gap; only a crash between the reservation and the entry's append could (the reservation then
// names an entry id that does not exist, which an auditor can see).
import { randomUUID } from 'node:crypto';
import pRetry from 'p-retry';
import { WrongExpectedVersionError, type EventStore } from '../../eventstore/port.js';
import type { CommandContext } from '../../domain/decider.js';

export const entryNumberStream = (tenantId: string, year: string): string => `entryNumbers-${tenantId}-${year}`;

export const formatEntryNumber = (year: string, sequence: number): string => `${year}-${String(sequence).padStart(5, '0')}`;

/**
 * Reservations of one tenant-year queue up inside a process: concurrent creates of one busy
 * integration would otherwise race on the number stream and mostly lose (measured: 8 appends per
 * create and 409s under 16 clients). Across processes the expected-revision append still decides.
 */
const queues = new Map<string, Promise<unknown>>();

export function reserveEntryNumber(store: EventStore, ctx: CommandContext, year: string, entryId: string, correlationId: string): Promise<string> {
  const streamId = entryNumberStream(ctx.tenantId, year);
  const previous = queues.get(streamId) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => reserve(store, ctx, streamId, year, entryId, correlationId));
  queues.set(streamId, next);
  void next.finally(() => { if (queues.get(streamId) === next) queues.delete(streamId); }).catch(() => undefined);
  return next;
}

/**
 * The last reservation this process made per tenant-year stream. Since reservations queue here, the
 * next one usually follows it directly and needs no read; if another process reserved meanwhile,
 * the append at the remembered revision fails, the entry is dropped, and the retry reads.
 */
const lastReserved = new Map<string, { revision: number; sequence: number }>();
const LAST_RESERVED_LIMIT = 10_000;

async function reserve(store: EventStore, ctx: CommandContext, streamId: string, year: string, entryId: string, correlationId: string): Promise<string> {
  return pRetry(async () => {
    let last = lastReserved.get(streamId);
    if (!last) {
      const stored = (await store.readStream(streamId, { direction: 'backwards', maxCount: 1 }))[0];
      if (stored) last = { revision: stored.revision, sequence: (stored.data as { sequence: number }).sequence };
    }
    const sequence = last ? last.sequence + 1 : 1;
    const entryNumber = formatEntryNumber(year, sequence);
    try {
      const result = await store.appendToStream(streamId, [{
        id: randomUUID(),
        type: 'EntryNumberReserved',
        data: { sequence, entryNumber, entryId },
        metadata: { tenantId: ctx.tenantId, actor: ctx.actor, correlationId, causationId: correlationId, occurredAt: ctx.now },
      }], last ? last.revision : 'no_stream');
      lastReserved.delete(streamId); // re-insert: the map's order is its recency
      if (lastReserved.size >= LAST_RESERVED_LIMIT) lastReserved.delete(lastReserved.keys().next().value!);
      lastReserved.set(streamId, { revision: result.nextExpectedRevision, sequence });
    } catch (err) {
      lastReserved.delete(streamId);
      throw err;
    }
    return entryNumber;
  }, { retries: 20, minTimeout: 2, maxTimeout: 50, randomize: true, shouldRetry: ({ error }) => error instanceof WrongExpectedVersionError });
}
