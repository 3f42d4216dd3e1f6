// Entry numbers, per tenant and year, gap-free (`2026-00042`). Each tenant-year is a stream of
// EntryNumberReserved events appended at the exact expected revision, so two concurrent creates
// can never take the same number and the sequence is auditable: every number names its entry.
// A number is reserved only after the create passed every check, so a rejected create leaves no
// gap; only a crash between the reservation and the entry's append could (the reservation then
// names an entry id that does not exist, which an auditor can see).
//
// Imported entries bring their own numbers, and those may be in the same `YYYY-NNNNN` space. So
// every number an entry gets, created or imported, is also claimed in a stream of its own,
// `entryNumber-{tenantId}-{number}`, appended with 'no_stream': the store lets exactly one append
// create a stream, so exactly one entry per tenant holds a number, whatever runs concurrently. A
// create whose reserved number an import already claimed skips to the next one (the reservation
// stays, and the claim stream names the entry that holds the number). An import of a number the
// tenant-year sequence has already passed is refused even without a claim: creates made before
// claims existed hold their numbers only in the sequence. See docs/domain.md, "Entry numbers".
import pRetry from 'p-retry';
import { WrongExpectedVersionError, type EventStore } from '../../eventstore/port.js';
import type { CommandContext } from '../../domain/decider.js';
import { DomainError } from '../../domain/errors.js';
import { parseEntryNumber } from '../../domain/travel-entries/validate-entry-number.js';
import { eventsToAppend } from '../command-handler.js';

export const entryNumberStream = (tenantId: string, year: string): string => `entryNumbers-${tenantId}-${year}`;

export const formatEntryNumber = (year: string, sequence: number): string => `${year}-${String(sequence).padStart(5, '0')}`;

/**
 * Numbers compare case-insensitively (`leg-1` is `LEG-1`: one legacy number typed twice) and with
 * leading zeros of the sequence ignored (`2026-000042` is `2026-00042`).
 */
export function entryNumberKey(entryNumber: string): string {
  const standard = parseEntryNumber(entryNumber);
  return standard ? formatEntryNumber(standard.year, standard.sequence) : entryNumber.toUpperCase();
}

/** The claim stream of one number; the number is percent-encoded, so `/` in a legacy number stays one name. */
export const entryNumberClaimStream = (tenantId: string, entryNumber: string): string =>
  `entryNumber-${tenantId}-${encodeURIComponent(entryNumberKey(entryNumber))}`;

export const ENTRY_NUMBER_TAKEN = 'ENTRY_NUMBER_TAKEN';

const taken = (entryNumber: string): DomainError =>
  new DomainError(ENTRY_NUMBER_TAKEN, 409, `Entry number ${entryNumber} is already taken by another entry of this company.`, undefined, {
    entryNumber,
  });

/**
 * Claims a number for an entry: true when this entry holds it (now, or already: a retried command
 * claims again), false when another entry does.
 */
async function claim(
  store: EventStore,
  ctx: CommandContext,
  entryNumber: string,
  entryId: string,
  origin: 'created' | 'imported',
  correlationId: string,
): Promise<boolean> {
  const streamId = entryNumberClaimStream(ctx.tenantId, entryNumber);
  try {
    const claimed = { type: 'EntryNumberClaimed', data: { entryNumber, entryId, origin } };
    await store.appendToStream(streamId, eventsToAppend([claimed], ctx, correlationId), 'no_stream');
    return true;
  } catch (err) {
    if (!(err instanceof WrongExpectedVersionError)) throw err;
    const holder = (await store.readStream(streamId, { direction: 'forwards', maxCount: 1 }))[0];
    return (holder?.data as { entryId?: string } | undefined)?.entryId === entryId;
  }
}

const LAST_RESERVED_LIMIT = 10_000;

/**
 * The entry numbers of one process. One instance, created by the composition root (the runtime)
 * and passed to the routes: its queues and its memory of the last reservations are process state.
 */
export class EntryNumbers {
  /**
   * Reservations of one tenant-year queue up inside a process: concurrent creates of one busy
   * integration would otherwise race on the number stream and mostly lose (measured: 8 appends per
   * create and 409s under 16 clients). Across processes the expected-revision append still decides.
   */
  private readonly queues = new Map<string, Promise<unknown>>();
  /**
   * The last reservation this process made per tenant-year stream. Since reservations queue here,
   * the next one usually follows it directly and needs no read; if another process reserved
   * meanwhile, the append at the remembered revision fails, the entry is dropped, and the retry reads.
   */
  private readonly lastReserved = new Map<string, { revision: number; sequence: number }>();

  constructor(private readonly store: EventStore) {}

  /**
   * Claims an imported entry's number (run after the import passed every check, before its append),
   * or throws 409 ENTRY_NUMBER_TAKEN when another entry of the tenant holds it.
   */
  async claimImported(ctx: CommandContext, entryNumber: string, entryId: string, correlationId: string): Promise<void> {
    const standard = parseEntryNumber(entryNumber);
    if (standard) {
      const sequenceStream = entryNumberStream(ctx.tenantId, standard.year);
      const last = (await this.store.readStream(sequenceStream, { direction: 'backwards', maxCount: 1 }))[0];
      if (last && (last.data as { sequence: number }).sequence >= standard.sequence) throw taken(entryNumber);
    }
    if (!(await claim(this.store, ctx, entryNumber, entryId, 'imported', correlationId))) throw taken(entryNumber);
  }

  /**
   * The next number of the tenant-year sequence that no import holds. Only the reservation waits in
   * the tenant-year queue; the claim runs outside it, so concurrent creates claim in parallel. A
   * number an import already claimed stays reserved (and skipped): the next one is reserved.
   */
  async reserve(ctx: CommandContext, year: string, entryId: string, correlationId: string): Promise<string> {
    for (;;) {
      const entryNumber = await this.queuedReserve(ctx, year, entryId, correlationId);
      if (await claim(this.store, ctx, entryNumber, entryId, 'created', correlationId)) return entryNumber;
    }
  }

  private queuedReserve(ctx: CommandContext, year: string, entryId: string, correlationId: string): Promise<string> {
    const streamId = entryNumberStream(ctx.tenantId, year);
    const previous = this.queues.get(streamId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.reserveNext(ctx, streamId, year, entryId, correlationId));
    this.queues.set(streamId, next);
    void next
      .finally(() => {
        if (this.queues.get(streamId) === next) this.queues.delete(streamId);
      })
      .catch(() => undefined);
    return next;
  }

  private reserveNext(ctx: CommandContext, streamId: string, year: string, entryId: string, correlationId: string): Promise<string> {
    return pRetry(
      async () => {
        let last = this.lastReserved.get(streamId);
        if (!last) {
          const stored = (await this.store.readStream(streamId, { direction: 'backwards', maxCount: 1 }))[0];
          if (stored) last = { revision: stored.revision, sequence: (stored.data as { sequence: number }).sequence };
        }
        const sequence = last ? last.sequence + 1 : 1;
        const entryNumber = formatEntryNumber(year, sequence);
        const reserved = { type: 'EntryNumberReserved', data: { sequence, entryNumber, entryId } };
        try {
          const result = await this.store.appendToStream(
            streamId,
            eventsToAppend([reserved], ctx, correlationId),
            last ? last.revision : 'no_stream',
          );
          this.lastReserved.delete(streamId); // re-insert: the map's order is its recency
          if (this.lastReserved.size >= LAST_RESERVED_LIMIT) this.lastReserved.delete(this.lastReserved.keys().next().value!);
          this.lastReserved.set(streamId, { revision: result.nextExpectedRevision, sequence });
        } catch (err) {
          this.lastReserved.delete(streamId);
          throw err;
        }
        return entryNumber;
      },
      {
        retries: 20,
        minTimeout: 2,
        maxTimeout: 50,
        randomize: true,
        shouldRetry: ({ error }) => error instanceof WrongExpectedVersionError,
      },
    );
  }
}
