// Persistent subscriptions (consumer groups) emulated on PostgreSQL, with EventStoreDB's contract:
// at-least-once delivery, ack / nack (retry, park, skip), a retry limit after which an event is
// parked, replay of parked events before new ones, and one active owner per group.
//
// Ownership is a lease on the group row: the owner renews it while it works, a standby takes the
// group over only once the lease has expired, and every checkpoint write is fenced on ownership,
// so a consumer that lost its lease can never move the checkpoint.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../infra/database.js';
import {
  formatPosition,
  parsePosition,
  type ConsumerGroupSettings,
  type FeedFilter,
  type ParkedEventInfo,
  type PersistentSubscriptionOptions,
  type Position,
  type ReadAllOptions,
  type ReadAllPage,
  type RecordedEvent,
  type Subscription,
} from '../port.js';
import { EVENT_COLUMNS, toRecorded, type EventRow } from './rows.js';
import type { Wakeup } from './wakeup.js';
import { backoffMs } from '../../infra/availability.js';

export const LEASE_MS = 15_000;
/**
 * While events keep coming, the group row is claimed again once this much time has passed since the
 * last claim; changed settings (filter, retry count) are seen then. Every checkpoint write extends
 * the lease and reports replay requests, so a busy consumer spends no claim statement per page
 * (issue 13: fewer statements per event under load) and keeps its lease from each page to the next.
 * The period runs from the claim, not from the last extension: a consumer whose pages never stop
 * extends its lease on every page and would otherwise never read its settings again (session 13's
 * test found that). An idle consumer claims on every poll, as before.
 */
const RENEW_AFTER_MS = LEASE_MS / 3;
const BATCH = 100;
const IDLE_POLL_MS = 500;

interface GroupRow {
  filter: FeedFilter;
  max_retry_count: number;
  checkpoint: string | null;
  /** Parked events of the group wait to be replayed. */
  replay_requested: boolean;
}

/** The group row as its owner keeps it between claims. */
interface HeldGroup extends GroupRow {
  /** performance.now() before the claim that read this row's settings. */
  claimedAt: number;
}

export async function createConsumerGroup(
  db: Db,
  headPosition: () => Promise<Position | undefined>,
  group: string,
  s: ConsumerGroupSettings,
): Promise<void> {
  const start = s.startFrom === 'end' ? await headPosition() : undefined;
  await sql`
    insert into es_consumer_groups (group_name, filter, max_retry_count, checkpoint)
    values (${group}, ${JSON.stringify(s.filter ?? {})}::jsonb, ${s.maxRetryCount}, ${start ? formatPosition(start) : null})
    on conflict (group_name) do update set filter = excluded.filter, max_retry_count = excluded.max_retry_count, updated_at = now()`.execute(
    db,
  );
}

export function subscribeToConsumerGroup(
  db: Db,
  read: (o: ReadAllOptions) => Promise<ReadAllPage>,
  wakeup: Wakeup,
  group: string,
  o: PersistentSubscriptionOptions,
): Subscription {
  const abort = new AbortController();
  const owner = `${o.consumerName}:${randomUUID()}`;
  const replayRequested = sql`exists (select 1 from es_parked p where p.group_name = ${group} and p.replay_requested) as replay_requested`;

  /** Takes or renews the lease; returns the group row when this consumer owns the group. */
  const claim = async (): Promise<GroupRow | undefined> => {
    const r = await sql<GroupRow>`
      update es_consumer_groups
      set owner = ${owner}, lease_until = now() + make_interval(secs => ${LEASE_MS / 1000}), updated_at = now()
      where group_name = ${group} and (owner is null or owner = ${owner} or lease_until < now())
      returning filter, max_retry_count, checkpoint, ${replayRequested}`.execute(db);
    return r.rows[0];
  };

  /**
   * Moves the checkpoint and extends the lease, fenced on ownership; answers whether replay
   * requests wait, or undefined when this consumer no longer owns the group.
   */
  const saveCheckpoint = async (p: Position): Promise<{ replay_requested: boolean } | undefined> => {
    const r = await sql<{ replay_requested: boolean }>`
      update es_consumer_groups
      set checkpoint = ${formatPosition(p)}, lease_until = now() + make_interval(secs => ${LEASE_MS / 1000}), updated_at = now()
      where group_name = ${group} and owner = ${owner}
      returning ${replayRequested}`.execute(db);
    return r.rows[0];
  };

  const park = async (e: RecordedEvent, reason: string, retryCount: number): Promise<void> => {
    await sql`
      insert into es_parked (group_name, event_id, global_position, reason, retry_count)
      values (${group}, ${e.id}::uuid, ${Number(e.position.prepare)}, ${reason.slice(0, 2000)}, ${retryCount})
      on conflict (group_name, event_id) do update
        set reason = excluded.reason, retry_count = excluded.retry_count, replay_requested = false, parked_at = now()`.execute(db);
  };

  const databaseAnswers = (): Promise<boolean> =>
    sql`select 1`.execute(db).then(
      () => true,
      () => false,
    );

  /** Delivers one event until it is settled. Returns false when the subscription was stopped. */
  const deliver = async (e: RecordedEvent, maxRetry: number): Promise<'acked' | 'parked' | 'skipped' | 'stopped'> => {
    for (let retryCount = 0; ; retryCount++) {
      if (abort.signal.aborted) return 'stopped';
      if (retryCount > 0) await claim(); // keep the lease through a long retry sequence
      let outcome: void | { nack: 'retry' | 'park' | 'skip'; reason: string };
      try {
        outcome = await o.handler({ event: e, retryCount });
      } catch (err) {
        outcome = { nack: 'retry', reason: err instanceof Error ? err.message : String(err) };
      }
      if (!outcome) return 'acked';
      if (outcome.nack === 'skip') return 'skipped';
      // A handler that failed because the database is away has not had a fair try: retries are
      // counted only while the database answers, so an outage never parks an event (at the cost of
      // a probe per failed delivery).
      if (outcome.nack === 'retry' && !(await databaseAnswers())) {
        retryCount--;
        await wakeup.wait(backoffMs(4), abort.signal);
        continue;
      }
      if (outcome.nack === 'park' || retryCount >= maxRetry) {
        await park(e, outcome.reason, retryCount);
        return 'parked';
      }
      await wakeup.wait(Math.min(50 * 2 ** retryCount, 2000), abort.signal);
    }
  };

  /**
   * The page in one handleBatch call, when the consumer has one and the page holds more than one
   * event. False when it did not settle them: no batch handler, or the call threw (then each event
   * goes to the handler alone, which retries, parks and reports as for any event).
   */
  const deliverAll = async (events: readonly RecordedEvent[]): Promise<boolean> => {
    if (!o.handleBatch || events.length < 2 || abort.signal.aborted) return false;
    try {
      await o.handleBatch(events);
      return true;
    } catch (err) {
      try {
        o.onError?.(err);
      } catch {
        // a reporter's own failure must not end the subscription
      }
      return false;
    }
  };

  /** Replays up to a batch of parked events; true when more may wait (a full batch, or stopped). */
  const replayParked = async (maxRetry: number): Promise<boolean> => {
    const r = await sql<EventRow>`
      select ${sql.raw(
        EVENT_COLUMNS.split(', ')
          .map((c) => `e.${c}`)
          .join(', '),
      )}
      from es_parked p join es_events e on e.event_id = p.event_id
      where p.group_name = ${group} and p.replay_requested
      order by p.global_position limit ${BATCH}`.execute(db);
    for (const row of r.rows) {
      const e = toRecorded(row);
      const result = await deliver(e, maxRetry);
      if (result === 'stopped') return true;
      if (result !== 'parked') await sql`delete from es_parked where group_name = ${group} and event_id = ${e.id}::uuid`.execute(db);
    }
    return r.rows.length === BATCH;
  };

  /** The group as of this consumer's last claim, with what its checkpoint writes since reported. */
  let held: HeldGroup | undefined;
  /**
   * The group row while this consumer owns it (the held row itself: the loop writes what its
   * checkpoint reports into it); claims when idle or when the last claim is RENEW_AFTER_MS old.
   */
  const owned = async (idle: boolean): Promise<HeldGroup | undefined> => {
    if (held && !idle && performance.now() - held.claimedAt < RENEW_AFTER_MS) return held;
    const claimedAt = performance.now(); // before the statement: the lease runs from later than this
    const row = await claim();
    held = row ? { ...row, claimedAt } : undefined;
    return held;
  };

  let failures = 0;
  let idle = true; // the last page was empty
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        const row = await owned(idle);
        failures = 0;
        if (!row) {
          // A standby: another consumer holds the lease.
          await wakeup.wait(Math.min(LEASE_MS / 3, 2000), abort.signal);
          continue;
        }
        if (row.replay_requested) row.replay_requested = await replayParked(row.max_retry_count);
        let position = row.checkpoint ? parsePosition(row.checkpoint) : undefined;
        const page = await read({ after: position, filter: row.filter, maxCount: BATCH });
        idle = page.events.length === 0;
        if (await deliverAll(page.events)) position = page.events.at(-1)!.position;
        else {
          for (const e of page.events) {
            if ((await deliver(e, row.max_retry_count)) === 'stopped') break;
            position = e.position;
          }
        }
        if (position && page.events.length > 0) {
          const saved = await saveCheckpoint(position);
          if (!saved) {
            held = undefined; // lease lost
            continue;
          }
          Object.assign(row, { checkpoint: formatPosition(position), replay_requested: saved.replay_requested });
        }
        if (page.isEnd) await wakeup.idle(IDLE_POLL_MS, abort.signal, row.filter, position);
      } catch (err) {
        // A lost connection or a database that is down: report, back off (longer while it lasts), retry.
        held = undefined;
        try {
          o.onError?.(err);
        } catch {
          // a reporter's own failure must not end the subscription
        }
        await wakeup.wait(backoffMs(failures++ + 2), abort.signal);
      }
    }
  })();

  return {
    async stop() {
      abort.abort();
      await loop;
      // Hand the group over at once instead of making a standby wait out the lease.
      await sql`update es_consumer_groups set owner = null, lease_until = null where group_name = ${group} and owner = ${owner}`
        .execute(db)
        .catch(() => undefined);
    },
  };
}

export async function listParked(db: Db, group: string): Promise<ParkedEventInfo[]> {
  const r = await sql<{ event_id: string; reason: string; retry_count: number; parked_at: Date }>`
    select event_id::text as event_id, reason, retry_count, parked_at from es_parked
    where group_name = ${group} order by global_position`.execute(db);
  return r.rows.map((x) => ({ eventId: x.event_id, reason: x.reason, retryCount: x.retry_count, parkedAt: new Date(x.parked_at) }));
}

export async function replayParked(db: Db, group: string): Promise<string[]> {
  const r = await sql<{ event_id: string }>`
    update es_parked set replay_requested = true where group_name = ${group} and not replay_requested
    returning event_id::text as event_id`.execute(db);
  return r.rows.map((x) => x.event_id);
}
