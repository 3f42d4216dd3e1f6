// The one write path: load the stream, fold it, decide (pure), append at the revision that was
// read. A concurrent writer makes the append fail; the whole command is then retried on fresh
// state (bounded), and only a command that keeps losing answers 409 CONCURRENCY_CONFLICT.
// Every event gets its link of the stream's hash chain here (audit/event-hash.ts): the previous hash
// is the last event's as read, and the append at the read revision proves nobody linked to it first.
// An append that got no answer is sent once more with the same events (append-answered.ts).
import { randomUUID } from 'node:crypto';
import pRetry, { AbortError } from 'p-retry';
import { DomainError } from '../domain/errors.js';
import type { CommandContext, Decider, DomainEvent } from '../domain/decider.js';
import {
  WrongExpectedVersionError,
  type AppendResult,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
} from '../eventstore/port.js';
import { eventHash, previousHashFor } from './audit/event-hash.js';
import { appendAnswered } from './append-answered.js';

export interface CommandRequest<C, S, E extends DomainEvent> {
  streamId: string;
  decider: Decider<C, S, E>;
  /** Built per attempt, so facts looked up by the shell are fresh on every retry. */
  command: C | ((state: S, revision: number | undefined) => C | Promise<C>);
  context: CommandContext;
  correlationId: string;
  /** The client's If-Match: the stream revision it last saw. A mismatch is 412, never retried. */
  ifMatch?: number | undefined;
  /** The command creates the stream: a stream that exists (in any tenant) is a conflict. */
  mustNotExist?: boolean;
  /** The command needs the stream: a missing stream, or one of another tenant, is a 404. */
  mustExist?: { notFoundMessage: string };
  /**
   * Runs once per attempt, after the decision succeeded and before the append: the shell's side
   * effects that a refused command must not cause (reserve or claim an entry number, store
   * attachment blobs). It may return the events with what it allocated filled in; a DomainError it
   * throws is final, like a refusal.
   */
  beforeAppend?: (events: E[], state: S) => Promise<E[] | void>;
  /**
   * Runs in place of the plain append, for events that must reach the store together with other
   * streams' events (a created entry with its number's reservation and claim, in one atomic append).
   * It gets the decided events (after beforeAppend) and `chain`, which makes them this stream's
   * events as the plain append would send them (ids, metadata, hash links); it returns the events
   * as decided and as appended (e.g. with a number filled in) and this stream's append result. A
   * WrongExpectedVersionError naming this stream counts as the plain append's would.
   */
  append?: (decided: E[], chain: (events: E[]) => NewEvent[]) => Promise<AppendedEvents<E>>;
  /**
   * The stream as this process last left it: the first attempt decides on it without a read (a
   * conflict means someone else wrote meanwhile, and the retry reads). `revision: undefined` expects
   * a new stream (its first event links to the genesis hash); an existing one needs its last event's
   * hash (undefined when that event predates the hash chain).
   */
  known?: { state: S; revision: undefined } | { state: S; revision: number; lastHash: string | undefined };
  /** The stream's state is its last event (a sequence): a read folds only that event. */
  lastEventOnly?: boolean;
}

/** What a command's append wrote: the events as decided and as sent, and the stream's result. */
export interface AppendedEvents<E> {
  decided: E[];
  appended: NewEvent[];
  result: AppendResult;
}

export interface CommandResult<S> {
  state: S;
  /** Revision after the command (unchanged when the command recorded nothing). */
  revision: number;
  position: Position | undefined;
  events: RecordedEvent[];
  /** The hash of the stream's last event after the command (what a later `known` passes on). */
  lastHash: string | undefined;
}

// Each lost race means another writer won, so a command that loses 10 times in a row would need
// 10 concurrent writers on one stream: far beyond any real entry, so then it is reported as 409.
export const COMMAND_RETRIES = 10;

export async function handleCommand<C, S, E extends DomainEvent>(
  store: EventStore,
  req: CommandRequest<C, S, E>,
): Promise<CommandResult<S>> {
  return pRetry((attemptNumber) => attempt(store, req, attemptNumber === 1 ? req.known : undefined), {
    retries: COMMAND_RETRIES,
    minTimeout: 5,
    maxTimeout: 100,
    randomize: true,
    shouldRetry: ({ error }) => error instanceof WrongExpectedVersionError,
  }).catch((err: unknown) => {
    if (err instanceof WrongExpectedVersionError) {
      throw new DomainError('CONCURRENCY_CONFLICT', 'The resource kept changing while the command ran; retry it.');
    }
    throw err;
  });
}

/** Where new events join a stream's hash chain: after `revision` (undefined: a new stream), whose event has `lastHash`. */
export interface ChainTail {
  streamId: string;
  revision: number | undefined;
  lastHash: string | undefined;
}

/**
 * The events of one decision as the store takes them: a fresh id each, and the metadata every event
 * in the system carries (tenant, actor, correlation, causation, time, and its link of the stream's
 * hash chain). The one place it is built.
 */
export function eventsToAppend(
  decided: readonly DomainEvent[],
  context: CommandContext,
  correlationId: string,
  tail: ChainTail,
): NewEvent[] {
  const causationId = randomUUID();
  let revision = tail.revision ?? -1;
  let lastHash = tail.lastHash;
  const { tenantId, actor, now: occurredAt } = context;
  return decided.map((e) => {
    revision += 1;
    const previousHash = previousHashFor(revision, lastHash);
    const hashed = { tenantId, actor, correlationId, causationId, occurredAt };
    const hash = eventHash(previousHash, { streamId: tail.streamId, revision, type: e.type, data: e.data, metadata: hashed });
    lastHash = hash;
    // Written out rather than spread from `hashed`: a spread with added fields is the slow object copy.
    const metadata = { tenantId, actor, correlationId, causationId, occurredAt, previousHash, hash };
    return { id: randomUUID(), type: e.type, data: e.data, metadata };
  });
}

/** A stream as the write path sees it: folded state, last revision, and whether it is another tenant's. */
export interface LoadedStream<S> {
  state: S;
  /** The last event's revision; undefined for a stream that does not exist. */
  revision: number | undefined;
  /** The last event's hash; undefined for a new stream or a last event older than the hash chain. */
  lastHash: string | undefined;
  /** The stream exists but belongs to another tenant (callers treat it as absent: a 404, never a leak). */
  foreign: boolean;
}

/** Reads and folds one stream with its decider, checking its tenant (the one place both are done). */
export async function loadStream<S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>,
  tenantId: string,
  opts: { lastEventOnly?: boolean } = {},
): Promise<LoadedStream<S>> {
  const history = await store.readStream(streamId, opts.lastEventOnly ? { direction: 'backwards', maxCount: 1 } : {});
  if (history.length === 0) return { state: decider.initialState(), revision: undefined, lastHash: undefined, foreign: false };
  const last = history[history.length - 1]!;
  if (history[0]!.metadata.tenantId !== tenantId)
    return { state: decider.initialState(), revision: last.revision, lastHash: undefined, foreign: true };
  let state = decider.initialState();
  for (const e of history) state = decider.evolve(state, { type: e.type, data: e.data } as E);
  return { state, revision: last.revision, lastHash: last.metadata.hash, foreign: false };
}

async function attempt<C, S, E extends DomainEvent>(
  store: EventStore,
  req: CommandRequest<C, S, E>,
  known: CommandRequest<C, S, E>['known'],
): Promise<CommandResult<S>> {
  // A create needs no read: its stream id is new, and the append at 'no_stream' proves it (below).
  const loaded: LoadedStream<S> = req.mustNotExist
    ? { state: req.decider.initialState(), revision: undefined, lastHash: undefined, foreign: false }
    : known
      ? { lastHash: undefined, ...known, foreign: false }
      : await loadStream(store, req.streamId, req.decider, req.context.tenantId, { lastEventOnly: req.lastEventOnly === true });
  const { foreign } = loaded;
  if (req.mustExist && (loaded.revision === undefined || foreign)) {
    throw new AbortError(new DomainError('NOT_FOUND', req.mustExist.notFoundMessage));
  }
  if (foreign) throw new AbortError(new DomainError('NOT_FOUND', 'The resource was not found.'));

  const revision = loaded.revision;
  if (req.ifMatch !== undefined && req.ifMatch !== revision) {
    throw new AbortError(
      new DomainError(
        'PRECONDITION_FAILED',
        `If-Match names revision ${req.ifMatch}, but the resource is at revision ${revision ?? 'none'}.`,
        undefined,
        { currentRevision: revision ?? null },
      ),
    );
  }
  let state = loaded.state;

  let decided: E[];
  try {
    const command =
      typeof req.command === 'function'
        ? await (req.command as (s: S, r: number | undefined) => C | Promise<C>)(state, revision)
        : req.command;
    decided = req.decider.decide(command, state, req.context);
  } catch (err) {
    // A rejected command is final: retrying cannot change the verdict.
    throw err instanceof DomainError ? new AbortError(err) : err;
  }
  if (decided.length === 0) return { state, revision: revision ?? -1, position: undefined, events: [], lastHash: loaded.lastHash };
  if (req.beforeAppend) {
    try {
      decided = (await req.beforeAppend(decided, state)) ?? decided;
    } catch (err) {
      throw err instanceof DomainError ? new AbortError(err) : err;
    }
  }

  const chain = (events: E[]): NewEvent[] =>
    eventsToAppend(events, req.context, req.correlationId, {
      streamId: req.streamId,
      revision,
      lastHash: loaded.lastHash,
    });
  const plainAppend = async (events: E[]): Promise<AppendedEvents<E>> => {
    const appended = chain(events);
    const result = await appendAnswered(() => store.appendToStream(req.streamId, appended, revision ?? 'no_stream'));
    return { decided: events, appended, result };
  };
  const written = await (req.append ? req.append(decided, chain) : plainAppend(decided)).catch((err: unknown) => {
    if (req.mustNotExist && err instanceof WrongExpectedVersionError && err.streamId === req.streamId) {
      throw new AbortError(new DomainError('ALREADY_EXISTS', `${req.streamId} already exists.`));
    }
    throw err;
  });
  const { result, appended: newEvents } = written;
  decided = written.decided;
  for (const e of decided) state = req.decider.evolve(state, e);
  const first = result.nextExpectedRevision - newEvents.length + 1;
  return {
    state,
    revision: result.nextExpectedRevision,
    position: result.position,
    events: newEvents.map((e, i) => ({
      ...e,
      streamId: req.streamId,
      revision: first + i,
      position: result.position,
      recordedAt: new Date(req.context.now),
    })),
    lastHash: newEvents[newEvents.length - 1]!.metadata.hash,
  };
}
