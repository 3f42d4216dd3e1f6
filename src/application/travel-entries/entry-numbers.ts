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
import { WrongExpectedVersionError, type AppendResult, type EventStore, type NewEvent, type StreamAppend } from '../../eventstore/port.js';
import type { CommandContext } from '../../domain/decider.js';
import { DomainError } from '../../domain/errors.js';
import { appendAnswered } from '../append-answered.js';
import {
  ENTRY_NUMBER_TAKEN,
  entryNumberClaimDecider,
  entryNumberClaimStream,
  entryNumberSequenceDecider,
  entryNumberStream,
  entryNumberTaken,
  type EntryNumberReserved,
  type EntryNumberSequence,
} from '../../domain/travel-entries/entry-numbers.js';
import { parseEntryNumber } from '../../domain/travel-entries/validate-entry-number.js';
import { COMMAND_RETRIES, eventsToAppend, handleCommand, loadStream, type AppendedEvents, type ChainTail } from '../command-handler.js';

export { entryNumberClaimStream, entryNumberKey, entryNumberStream, formatEntryNumber } from '../../domain/travel-entries/entry-numbers.js';
export { ENTRY_NUMBER_TAKEN };

const LAST_RESERVED_LIMIT = 10_000;
/**
 * Creates of one tenant-year in one append at most: 1 + 2 × 32 streams in one statement. 16 clients
 * of one integration put about 4 in each (docs/benchmarks.md, session 18).
 */
const MAX_BATCH = 32;

/** The entry of a create, as the write path hands it over: its stream, its decided events, how to hash them. */
export interface CreatedEntry<E> {
  streamId: string;
  decided: E[];
  chain: (events: E[]) => NewEvent[];
  withNumber: (events: E[], entryNumber: string) => E[];
}

/** One create's events, decided and hashed: its reservation, and its claim's and entry's appends. */
interface CreatedPart {
  reserved: EntryNumberReserved;
  reservation: NewEvent[];
  claimAppend: StreamAppend;
  decided: unknown[];
  entryAppend: StreamAppend;
}

/** A create waiting for its tenant-year's append, with the promise the write path awaits. */
interface PendingCreate {
  ctx: CommandContext;
  year: string;
  entryId: string;
  correlationId: string;
  entry: CreatedEntry<unknown>;
  resolve: (written: AppendedEvents<unknown>) => void;
  reject: (err: unknown) => void;
}

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
  /** Per tenant-year, the creates waiting behind the append in flight: they go together next. */
  private readonly openBatches = new Map<string, PendingCreate[]>();

  constructor(private readonly store: EventStore) {}

  /** Whether a create's number and entry go to the store in one atomic append (appendCreated). */
  get atomic(): boolean {
    return this.store.appendToStreams !== undefined;
  }

  /**
   * A created entry's append (the write path's `append` hook): the next number of the tenant-year
   * sequence, its claim and the entry with the number filled in, all in one atomic append, queued
   * per tenant-year like a reservation. Creates that arrive while an earlier append of the same
   * tenant-year is in flight wait together and go in one append (`appendBatch`).
   */
  appendCreated<E>(
    ctx: CommandContext,
    year: string,
    entryId: string,
    correlationId: string,
    entry: CreatedEntry<E>,
  ): Promise<AppendedEvents<E>> {
    const streamId = entryNumberStream(ctx.tenantId, year);
    return new Promise<AppendedEvents<E>>((resolve, reject) => {
      const create = { ctx, year, entryId, correlationId, entry, resolve, reject } as unknown as PendingCreate;
      const open = this.openBatches.get(streamId);
      if (open !== undefined && open.length < MAX_BATCH) {
        open.push(create);
        return;
      }
      const batch = [create];
      this.openBatches.set(streamId, batch);
      void this.queued(streamId, async () => {
        // Its turn: the batch closes, and creates arriving from now on open the next one.
        if (this.openBatches.get(streamId) === batch) this.openBatches.delete(streamId);
        await this.appendBatch(streamId, batch);
      });
    });
  }

  /**
   * One append for the batch: consecutive reservations in the sequence stream, and each create's
   * claim and entry. A sequence moved by another process is read again. Any other refusal (an
   * import holds one of the numbers, an entry's stream exists) writes nothing, and each create is
   * then appended alone, so it meets its own outcome and the others are not held to it. Settles
   * every create of the batch; never throws.
   */
  private async appendBatch(streamId: string, batch: PendingCreate[]): Promise<void> {
    const alone = await this.appendTogether(streamId, batch).catch((err: unknown) => {
      for (const c of batch) c.reject(err); // the sequence could not be read: nothing was tried
      return [];
    });
    for (const c of alone) await this.appendTogether(streamId, [c]).catch((err: unknown) => c.reject(err));
  }

  /**
   * The batch in one append. Settles the creates it decides; returns those to append one by one
   * (all of them, after a refusal by a stream other than the sequence: nothing was written). A
   * create alone meets that refusal itself: a number an import already claimed is reserved alone
   * (and skipped, as in `reserve`) and the next one tried; a conflict on the entry's own stream goes
   * back to the write path (ALREADY_EXISTS).
   */
  private async appendTogether(streamId: string, batch: PendingCreate[]): Promise<PendingCreate[]> {
    let creates = batch;
    for (let attempt = 0; ; attempt++) {
      const sequence = await this.sequenceOf(streamId, creates[0]!.ctx.tenantId);
      let state = sequence.state;
      let tail: ChainTail = { streamId, revision: sequence.revision, lastHash: sequence.lastHash };
      const members: { create: PendingCreate; part: CreatedPart }[] = [];
      for (const create of creates) {
        let part: CreatedPart;
        try {
          part = this.decideCreated(create, state, tail);
        } catch (err) {
          create.reject(err); // this create's own events cannot be made: the others go on without it
          continue;
        }
        members.push({ create, part });
        state = entryNumberSequenceDecider.evolve(state, part.reserved);
        tail = { streamId, revision: (tail.revision ?? -1) + 1, lastHash: part.reservation[0]!.metadata.hash };
      }
      creates = members.map((m) => m.create);
      if (members.length === 0) return [];
      const reservations = members.flatMap((m) => m.part.reservation);
      const settle = (results: AppendResult[]): PendingCreate[] => {
        this.remember(streamId, { state, revision: (sequence.revision ?? -1) + members.length, lastHash: tail.lastHash });
        members.forEach(({ create, part }, i) =>
          create.resolve({ decided: part.decided, appended: part.entryAppend.events, result: results[i]! }),
        );
        return [];
      };
      try {
        const appends: StreamAppend[] = [
          { streamId, events: reservations, expected: sequence.revision ?? 'no_stream' },
          ...members.flatMap((m) => [m.part.claimAppend, m.part.entryAppend]),
        ];
        const [, ...results] = await appendAnswered(() => this.store.appendToStreams!(appends));
        return settle(results.filter((_, i) => i % 2 === 1));
      } catch (err) {
        const refusedBy = err instanceof WrongExpectedVersionError ? err.streamId : undefined;
        if (refusedBy !== undefined && refusedBy !== streamId) {
          // Nothing was written: the sequence is as it was, for the creates that now go one by one.
          if (sequence.revision !== undefined) this.remember(streamId, { ...sequence, revision: sequence.revision });
          if (members.length > 1) return creates;
          const { create, part } = members[0]!;
          if (refusedBy === part.claimAppend.streamId && attempt < COMMAND_RETRIES) {
            // An import holds the number: it stays reserved (naming this entry) and is skipped.
            await this.reserveNext(create.ctx, streamId, create.year, create.entryId, create.correlationId);
            continue;
          }
        } else if (refusedBy !== undefined && attempt < COMMAND_RETRIES) {
          continue; // another process reserved meanwhile: read the sequence again
        }
        for (const c of creates) c.reject(err);
        return [];
      }
    }
  }

  /** The sequence as this process last left it, or as stored (read once, after a move or at start). */
  private async sequenceOf(
    streamId: string,
    tenantId: string,
  ): Promise<{ state: EntryNumberSequence; revision: number | undefined; lastHash: string | undefined }> {
    const known = this.lastReserved.get(streamId);
    this.lastReserved.delete(streamId); // re-inserted on success: the map's order is its recency
    return known ?? (await loadStream(this.store, streamId, entryNumberSequenceDecider, tenantId, { lastEventOnly: true }));
  }

  /** One create's reservation (after `tail` of the sequence), claim and entry events, decided and hashed. */
  private decideCreated(c: PendingCreate, sequence: EntryNumberSequence, tail: ChainTail): CreatedPart {
    const { ctx, year, entryId, correlationId, entry } = c;
    const [reserved] = entryNumberSequenceDecider.decide({ type: 'ReserveEntryNumber', data: { year, entryId } }, sequence, ctx);
    const { entryNumber } = reserved!.data;
    const claimStream = entryNumberClaimStream(ctx.tenantId, entryNumber);
    const claimed = entryNumberClaimDecider.decide(
      { type: 'ClaimEntryNumber', data: { entryNumber, entryId, origin: 'created' } },
      entryNumberClaimDecider.initialState(),
      ctx,
    );
    const decided = entry.withNumber(entry.decided, entryNumber);
    return {
      reserved: reserved!,
      reservation: eventsToAppend([reserved!], ctx, correlationId, tail),
      claimAppend: {
        streamId: claimStream,
        events: eventsToAppend(claimed, ctx, correlationId, { streamId: claimStream, revision: undefined, lastHash: undefined }),
        expected: 'no_stream',
      },
      decided,
      entryAppend: { streamId: entry.streamId, events: entry.chain(decided), expected: 'no_stream' },
    };
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
