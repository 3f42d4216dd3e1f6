// Entry numbers, per tenant and year, gap-free (`2026-00042`). Each tenant-year is a sequence stream
// whose reservations are appended at the exact expected revision, so two concurrent creates can
// never take the same number and the sequence is auditable: every number names its entry. A number
// is reserved only after the create passed every check (after its decision), so a rejected create
// leaves no gap. Where the reservation is its own append (EventStoreDB), a crash between it and the
// entry's append could (the reservation then names an entry id that does not exist, which an auditor
// can see); on PostgreSQL they are one atomic append (below).
//
// Imported entries bring their own numbers, and those may be in the same `YYYY-NNNNN` space. So
// every number an entry gets, created or imported, is also claimed in a stream of its own: exactly
// one entry per tenant holds a number, whatever runs concurrently. A create whose reserved number an
// import already claimed skips to the next one (the reservation stays, and the claim stream names
// the entry that holds the number). An import of a number the tenant-year sequence has already
// passed is refused even without a claim: creates made before claims existed hold their numbers only
// in the sequence. See docs/domain.md, "Entry numbers". The deciders are those of
// src/domain/travel-entries/entry-numbers.ts.
//
// On a store that appends several streams atomically (PostgreSQL), a create's reservation, claim and
// entry are one append (appendCreated, issue 13): one statement instead of three, and a crash can no
// longer leave a reservation without its entry. Elsewhere each is its own append through
// handleCommand (reserve).
import { WrongExpectedVersionError, type EventStore, type NewEvent } from '../../eventstore/port.js';
import type { CommandContext } from '../../domain/decider.js';
import { DomainError } from '../../domain/errors.js';
import {
  ENTRY_NUMBER_TAKEN,
  entryNumberClaimDecider,
  entryNumberClaimStream,
  entryNumberSequenceDecider,
  entryNumberStream,
  entryNumberTaken,
  type EntryNumberSequence,
} from '../../domain/travel-entries/entry-numbers.js';
import { parseEntryNumber } from '../../domain/travel-entries/validate-entry-number.js';
import { COMMAND_RETRIES, eventsToAppend, handleCommand, loadStream, type AppendedEvents } from '../command-handler.js';

export { entryNumberClaimStream, entryNumberKey, entryNumberStream, formatEntryNumber } from '../../domain/travel-entries/entry-numbers.js';
export { ENTRY_NUMBER_TAKEN };

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
   * The sequence as this process last left it, per tenant-year stream. Since reservations queue
   * here, the next one usually follows it directly and needs no read; if another process reserved
   * meanwhile, the append fails, and the write path's retry reads. The last event's hash comes
   * along: the next reservation links to it in the stream's hash chain.
   */
  private readonly lastReserved = new Map<string, { state: EntryNumberSequence; revision: number; lastHash: string | undefined }>();

  constructor(private readonly store: EventStore) {}

  /** Whether a create's number and entry go to the store in one atomic append (appendCreated). */
  get atomic(): boolean {
    return this.store.appendToStreams !== undefined;
  }

  /**
   * A created entry's append (the write path's `append` hook): the next number of the tenant-year
   * sequence, its claim and the entry with the number filled in, all in one atomic append, queued
   * per tenant-year like a reservation. A sequence moved by another process is read again; a number
   * an import already claimed is reserved alone (and skipped, as in `reserve`) and the next one
   * tried; a conflict on the entry's own stream goes back to the write path (ALREADY_EXISTS).
   */
  appendCreated<E>(
    ctx: CommandContext,
    year: string,
    entryId: string,
    correlationId: string,
    entry: { streamId: string; decided: E[]; chain: (events: E[]) => NewEvent[]; withNumber: (events: E[], entryNumber: string) => E[] },
  ): Promise<AppendedEvents<E>> {
    const streamId = entryNumberStream(ctx.tenantId, year);
    return this.queued(streamId, async () => {
      for (let attempt = 0; ; attempt++) {
        const known = this.lastReserved.get(streamId);
        this.lastReserved.delete(streamId); // re-inserted on success: the map's order is its recency
        const sequence =
          known ?? (await loadStream(this.store, streamId, entryNumberSequenceDecider, ctx.tenantId, { lastEventOnly: true }));
        const reserved = entryNumberSequenceDecider.decide({ type: 'ReserveEntryNumber', data: { year, entryId } }, sequence.state, ctx);
        const { entryNumber } = reserved[0]!.data;
        const claimStream = entryNumberClaimStream(ctx.tenantId, entryNumber);
        const claimed = entryNumberClaimDecider.decide(
          { type: 'ClaimEntryNumber', data: { entryNumber, entryId, origin: 'created' } },
          entryNumberClaimDecider.initialState(),
          ctx,
        );
        const decided = entry.withNumber(entry.decided, entryNumber);
        const appended = entry.chain(decided);
        const tail = { streamId, revision: sequence.revision, lastHash: sequence.lastHash };
        const reservation = eventsToAppend(reserved, ctx, correlationId, tail);
        const claim = eventsToAppend(claimed, ctx, correlationId, { streamId: claimStream, revision: undefined, lastHash: undefined });
        try {
          const [sequenceResult, , result] = await this.store.appendToStreams!([
            { streamId, events: reservation, expected: sequence.revision ?? 'no_stream' },
            { streamId: claimStream, events: claim, expected: 'no_stream' },
            { streamId: entry.streamId, events: appended, expected: 'no_stream' },
          ]);
          this.remember(streamId, {
            state: entryNumberSequenceDecider.evolve(sequence.state, reserved[0]!),
            revision: sequenceResult!.nextExpectedRevision,
            lastHash: reservation[0]!.metadata.hash,
          });
          return { decided, appended, result: result! };
        } catch (err) {
          if (!(err instanceof WrongExpectedVersionError) || attempt >= COMMAND_RETRIES) throw err;
          if (err.streamId === streamId) continue; // another process reserved meanwhile: read the sequence again
          if (err.streamId !== claimStream) throw err;
          // An import holds the number: it stays reserved (naming this entry) and is skipped.
          if (sequence.revision !== undefined) this.remember(streamId, { ...sequence, revision: sequence.revision });
          await this.reserveNext(ctx, streamId, year, entryId, correlationId);
        }
      }
    });
  }

  /**
   * Claims an imported entry's number (run after the import passed every check, before its append),
   * or throws 409 ENTRY_NUMBER_TAKEN when another entry of the tenant holds it.
   */
  async claimImported(ctx: CommandContext, entryNumber: string, entryId: string, correlationId: string): Promise<void> {
    const standard = parseEntryNumber(entryNumber);
    if (standard) {
      const sequenceStream = entryNumberStream(ctx.tenantId, standard.year);
      const sequence = await loadStream(this.store, sequenceStream, entryNumberSequenceDecider, ctx.tenantId, { lastEventOnly: true });
      if (sequence.state.last >= standard.sequence) throw entryNumberTaken(entryNumber);
    }
    await this.claim(ctx, entryNumber, entryId, 'imported', correlationId);
  }

  /**
   * The next number of the tenant-year sequence that no import holds. Only the reservation waits in
   * the tenant-year queue; the claim runs outside it, so concurrent creates claim in parallel. A
   * number an import already claimed stays reserved (and skipped): the next one is reserved.
   */
  async reserve(ctx: CommandContext, year: string, entryId: string, correlationId: string): Promise<string> {
    for (;;) {
      const entryNumber = await this.queuedReserve(ctx, year, entryId, correlationId);
      try {
        await this.claim(ctx, entryNumber, entryId, 'created', correlationId);
        return entryNumber;
      } catch (err) {
        if (!(err instanceof DomainError && err.code === ENTRY_NUMBER_TAKEN)) throw err;
      }
    }
  }

  /** Holds the number for the entry (again, for a retried command), or 409 ENTRY_NUMBER_TAKEN. */
  private async claim(
    ctx: CommandContext,
    entryNumber: string,
    entryId: string,
    origin: 'created' | 'imported',
    correlationId: string,
  ): Promise<void> {
    await handleCommand(this.store, {
      streamId: entryNumberClaimStream(ctx.tenantId, entryNumber),
      decider: entryNumberClaimDecider,
      command: { type: 'ClaimEntryNumber', data: { entryNumber, entryId, origin } },
      context: ctx,
      correlationId,
      // Nearly every number is claimed once: try the append as a new stream (linked to the genesis
      // hash), read only on a conflict.
      known: { state: entryNumberClaimDecider.initialState(), revision: undefined },
    });
  }

  private queuedReserve(ctx: CommandContext, year: string, entryId: string, correlationId: string): Promise<string> {
    const streamId = entryNumberStream(ctx.tenantId, year);
    return this.queued(streamId, () => this.reserveNext(ctx, streamId, year, entryId, correlationId));
  }

  /** Runs `work` after every earlier work queued on the tenant-year stream (failed or not). */
  private queued<T>(streamId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(streamId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.queues.set(streamId, next);
    void next
      .finally(() => {
        if (this.queues.get(streamId) === next) this.queues.delete(streamId);
      })
      .catch(() => undefined);
    return next;
  }

  private async reserveNext(ctx: CommandContext, streamId: string, year: string, entryId: string, correlationId: string): Promise<string> {
    const known = this.lastReserved.get(streamId);
    this.lastReserved.delete(streamId); // re-inserted below: the map's order is its recency
    const result = await handleCommand(this.store, {
      streamId,
      decider: entryNumberSequenceDecider,
      command: { type: 'ReserveEntryNumber', data: { year, entryId } },
      context: ctx,
      correlationId,
      lastEventOnly: true,
      ...(known ? { known } : {}),
    });
    this.remember(streamId, { state: result.state, revision: result.revision, lastHash: result.lastHash });
    const reserved = result.events[0]?.data as { entryNumber: string } | undefined;
    if (!reserved) throw new Error('a reservation recorded no number');
    return reserved.entryNumber;
  }

  private remember(streamId: string, last: { state: EntryNumberSequence; revision: number; lastHash: string | undefined }): void {
    if (this.lastReserved.size >= LAST_RESERVED_LIMIT) this.lastReserved.delete(this.lastReserved.keys().next().value!);
    this.lastReserved.set(streamId, last);
  }
}
