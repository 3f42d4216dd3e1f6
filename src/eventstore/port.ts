// The event-store port. Two adapters implement it (PostgreSQL/PGlite and EventStoreDB) and one
// contract suite (test/eventstore/contract.ts) holds both to the same behaviour.

/** Revisions are 0-based, as in EventStoreDB: the first event of a stream has revision 0. */
export type ExpectedRevision = 'no_stream' | 'any' | 'stream_exists' | number;

/**
 * A point in the global feed. On PostgreSQL `commit` is the writing transaction's xid8 and
 * `prepare` the row's identity; on EventStoreDB they are the log positions. Both order
 * lexicographically, so one checkpoint type serves both adapters.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export interface EventMetadata {
  tenantId: string;
  actor: { apiKeyId?: string; employeeId?: string; system?: string };
  correlationId: string;
  causationId: string;
  occurredAt: string;
  /**
   * The tamper-evident chain (src/application/audit/event-hash.ts): SHA-256 over `previousHash` and
   * the event's canonical form. Absent on events recorded before the chain existed.
   */
  hash?: string;
  /** The hash of the stream's previous event (or the genesis / unchained marker). */
  previousHash?: string;
}

export interface NewEvent<T extends string = string, D = unknown> {
  id: string;
  type: T;
  data: D;
  metadata: EventMetadata;
}

export interface RecordedEvent<T extends string = string, D = unknown> extends NewEvent<T, D> {
  streamId: string;
  revision: number;
  position: Position;
  recordedAt: Date;
}

/** One stream's part of an atomic multi-stream append. */
export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event written (ESDB's nextExpectedRevision). */
  nextExpectedRevision: number;
  position: Position;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive. Forwards default 0; backwards default the end of the stream. */
  fromRevision?: number;
  /** Inclusive bound on the other side. */
  toRevision?: number;
  maxCount?: number;
}

/** Event-type or stream-category filter for the global feed. */
export interface FeedFilter {
  eventTypes?: readonly string[];
  /** Stream categories: the part before the first '-' (`travelEntry`, `employee`, ...). */
  categories?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Absent: from the start. */
  after?: Position | undefined;
  filter?: FeedFilter | undefined;
  maxCount?: number;
}

export interface RequestEvents {
  /** Exclusive; absent: from the start. */
  after: Position | undefined;
  correlationId: string;
  tenantId: string;
  /** Events recorded later are not looked at. */
  until: Date;
}

export interface ReadAllPage {
  events: RecordedEvent[];
  /**
   * Where the next read starts. Can be past the last event returned when a filter skipped events,
   * so checkpoints on sparse filters keep moving.
   */
  lastPosition: Position | undefined;
  /** True when the page reached the visible end of the feed. */
  isEnd: boolean;
}

export interface CatchUpOptions {
  after?: Position | undefined;
  filter?: FeedFilter | undefined;
  batchSize?: number;
  /** Called with events in feed order; the next batch waits for this promise. */
  onBatch(events: RecordedEvent[], lastPosition: Position | undefined): Promise<void>;
  /** Called every time the subscription reaches the live end of the feed. */
  onCaughtUp?(): void;
  onError?(err: unknown): void;
}

export interface Subscription {
  /** Stops after the batch in hand and resolves when the subscription released its resources. */
  stop(): Promise<void>;
}

export type NackAction = 'retry' | 'park' | 'skip';

export interface PersistentEvent {
  event: RecordedEvent;
  retryCount: number;
}

export interface ConsumerGroupSettings {
  filter?: FeedFilter;
  /** A message nacked with retry this many times is parked. */
  maxRetryCount: number;
  /** Where a newly created group starts. */
  startFrom: 'start' | 'end';
}

export interface PersistentSubscriptionOptions {
  /**
   * The handler settles every event: resolve (ack) or return a nack. A thrown error counts as a
   * nack with 'retry'. Delivery is at-least-once and order is not guaranteed across retries:
   * handlers must be idempotent.
   */
  handler(msg: PersistentEvent): Promise<void | { nack: NackAction; reason: string }>;
  /**
   * Optional: settles several events in one call, in their order, for a consumer whose work per
   * event is a statement that a run of events can share. Resolving acks them all. Throwing acks
   * none: each is then given to `handler` alone, with its retries, nacks and parking. An adapter
   * may never call it (EventStoreDB hands over one message at a time), so it must do what
   * `handler` does for each event.
   */
  handleBatch?(events: readonly RecordedEvent[]): Promise<void>;
  /** Identifies this consumer for the one-active-owner rule. */
  consumerName: string;
  onError?(err: unknown): void;
}

export interface ParkedEventInfo {
  eventId: string;
  reason: string;
  retryCount: number;
  parkedAt: Date;
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  appendToStream(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Optional: appends to several distinct streams at once, all or none (one statement on PostgreSQL).
   * A failed check throws WrongExpectedVersionError naming the first stream that failed, and
   * nothing is written. Results in the order of `appends`. Callers of a store without it append
   * one stream at a time.
   */
  appendToStreams?(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /** A missing stream reads as an empty list (never an exception mid-iteration). */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<ReadAllPage>;
  /** Position of the last visible event (undefined on an empty store). */
  headPosition(filter?: FeedFilter): Promise<Position | undefined>;
  /** Visible events after a position (matching the filter), counted up to `cap`: projection lag. */
  countAfter(after: Position | undefined, filter: FeedFilter | undefined, cap: number): Promise<number>;
  /**
   * The streams one request wrote to: events after `after` whose metadata names the correlation id
   * and tenant, recorded no later than `until`. Unlike the feed, an event counts as soon as it is
   * committed, even while an older transaction is still open. Judges an Idempotency-Key claim whose
   * request went unanswered (src/http/idempotency/abandoned-claim.ts).
   */
  streamsOfRequest(request: RequestEvents): Promise<string[]>;
  subscribeToAll(options: CatchUpOptions): Subscription;

  createConsumerGroup(group: string, settings: ConsumerGroupSettings): Promise<void>;
  subscribeToConsumerGroup(group: string, options: PersistentSubscriptionOptions): Subscription;
  listParked(group: string): Promise<ParkedEventInfo[]>;
  /**
   * Parked events are delivered again, before new ones. Returns the ids of the events asked for,
   * so an operator can find them should the replay be lost (EventStoreDB holds it in memory).
   */
  replayParked(group: string): Promise<string[]>;

  close(): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Wrong expected version on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersionError';
  }
}

/** Another consumer owns the group; this one waits as a standby. */
export class ConsumerGroupOwnedError extends Error {}

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function formatPosition(p: Position): string {
  return `${p.commit}/${p.prepare}`;
}

export function parsePosition(s: string): Position {
  const m = /^(\d+)\/(\d+)$/.exec(s);
  if (!m) throw new Error(`Malformed position "${s}"`);
  return { commit: BigInt(m[1]!), prepare: BigInt(m[2]!) };
}

export function categoryOf(streamId: string): string {
  const i = streamId.indexOf('-');
  return i === -1 ? streamId : streamId.slice(0, i);
}
