// The record of finished attempts: the delivery's new state, one attempt-log row, and the
// subscription's count of consecutive Exhausted deliveries (auto-disable), in one transaction.
//
// Attempts are recorded in batches (group commit): while one batch is being written, the attempts
// that finish queue up and are written together by the next one. Under load a dispatcher then
// spends one statement on many deliveries instead of a transaction each, and its pool connections
// are not held by a queue of tiny transactions; when idle, a lone attempt is written at once.
//
// Every update is fenced on the lease token of the claim, so a worker whose lease expired (or whose
// delivery was cancelled by a delete) records nothing.
import { sql } from 'kysely';
import type { Db } from '../../infra/database.js';
import type { AttemptResult } from './outcome.js';
import type { DeliveryStatus } from '../tables.js';

export const AUTO_DISABLE_THRESHOLD = 10;
const DISABLED_REASON = `Disabled automatically after ${AUTO_DISABLE_THRESHOLD} consecutive deliveries were exhausted.`;

export interface AttemptRecord {
  deliveryId: string;
  leaseToken: string;
  attemptedAt: Date;
  manual: boolean;
  result: AttemptResult;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  /** Whether an Exhausted result counts toward auto-disable (the schedule ran out; not a manual or recovered attempt). */
  countsTowardDisable: boolean;
}

export type RecordOutcome = { recorded: false } | { recorded: true; attemptNumber: number; subscriptionId: string; disabledNow: boolean };

export type Recorder = (record: AttemptRecord) => Promise<RecordOutcome>;

/** Records attempts in the order given (the order in which they finished). */
export async function recordAttempts(db: Db, records: readonly AttemptRecord[]): Promise<RecordOutcome[]> {
  if (records.length === 0) return [];
  // One JSON parameter rather than many arrays: both drivers pass it unchanged, nulls and all.
  const input = JSON.stringify(
    records.map((a, ord) => ({
      ord,
      id: a.deliveryId,
      token: a.leaseToken,
      status: a.status,
      next_at: a.nextAttemptAt?.toISOString() ?? null,
      at: a.attemptedAt.toISOString(),
      manual: a.manual,
      code: a.result.statusCode ?? null,
      latency: a.result.latencyMs,
      class: a.result.failureClass ?? null,
      msg: a.result.errorMessage,
      body: a.result.responseBody ?? null,
      trunc: a.result.responseTruncated === true,
    })),
  );
  return db.transaction().execute(async (trx) => {
    const r = await sql<{ ord: number; subscription_id: string; attempt_count: number }>`
      with input as (
        select * from jsonb_to_recordset(${input}::jsonb) as i(ord int, id uuid, token uuid, status text, next_at timestamptz, at timestamptz,
          manual boolean, code int, latency int, class text, msg text, body text, trunc boolean)
      ),
      upd as (
        update webhook_deliveries d set
          status = i.status, attempt_count = d.attempt_count + 1, next_attempt_at = i.next_at, lease_token = null, lease_owner = null, single_attempt = false,
          last_attempt_at = i.at, last_response_status = i.code, last_response_body = i.body, last_failure_class = i.class
        from input i
        where d.id = i.id and d.lease_token = i.token
        returning d.id, d.subscription_id, d.attempt_count
      ),
      ins as (
        insert into webhook_delivery_attempts
          (delivery_id, attempt_number, attempted_at, manual, status_code, latency_ms, failure_class, error_message, response_body, response_truncated)
        select u.id, u.attempt_count, i.at, i.manual, i.code, i.latency, i.class, i.msg, i.body, i.trunc
        from upd u join input i on i.id = u.id
      )
      select i.ord, u.subscription_id::text as subscription_id, u.attempt_count
      from upd u join input i on i.id = u.id`.execute(trx);

    const outcomes: RecordOutcome[] = records.map(() => ({ recorded: false }));
    for (const row of r.rows) {
      outcomes[row.ord] = { recorded: true, attemptNumber: row.attempt_count, subscriptionId: row.subscription_id, disabledNow: false };
    }
    await updateExhaustedCounts(trx, records, outcomes);
    return outcomes;
  });
}

/**
 * A Succeeded delivery resets its subscription's count, a counting Exhausted one increments it and
 * may disable the subscription. Exhausted results are rare: subscriptions with one in the batch are
 * updated record by record in finishing order (consecutive means consecutive); the rest, which can
 * only reset, in one statement that writes nothing when the count is already 0.
 */
async function updateExhaustedCounts(db: Db, records: readonly AttemptRecord[], outcomes: RecordOutcome[]): Promise<void> {
  const touched = new Map<string, number[]>();
  records.forEach((a, i) => {
    const o = outcomes[i]!;
    if (!o.recorded) return;
    if (a.status === 'Succeeded' || (a.status === 'Exhausted' && a.countsTowardDisable)) {
      const list = touched.get(o.subscriptionId) ?? [];
      list.push(i);
      touched.set(o.subscriptionId, list);
    }
  });
  const resetOnly: string[] = [];
  for (const [subscriptionId, indexes] of touched) {
    if (indexes.every((i) => records[i]!.status === 'Succeeded')) {
      resetOnly.push(subscriptionId);
      continue;
    }
    for (const i of indexes) {
      if (records[i]!.status === 'Succeeded') {
        await sql`update webhook_subscriptions set consecutive_exhausted = 0 where id = ${subscriptionId}::uuid and consecutive_exhausted <> 0`.execute(
          db,
        );
        continue;
      }
      const s = await sql<{ disabled_now: boolean }>`
        update webhook_subscriptions set
          consecutive_exhausted = consecutive_exhausted + 1,
          is_active = case when consecutive_exhausted + 1 >= ${AUTO_DISABLE_THRESHOLD} then false else is_active end,
          disabled_at = case when is_active and consecutive_exhausted + 1 >= ${AUTO_DISABLE_THRESHOLD} then now() else disabled_at end,
          disabled_reason = case when is_active and consecutive_exhausted + 1 >= ${AUTO_DISABLE_THRESHOLD} then ${DISABLED_REASON} else disabled_reason end
        where id = ${subscriptionId}::uuid
        returning (is_active = false and disabled_at is not null and consecutive_exhausted = ${AUTO_DISABLE_THRESHOLD}) as disabled_now`.execute(
        db,
      );
      const o = outcomes[i]!;
      if (o.recorded) o.disabledNow = s.rows[0]?.disabled_now === true;
    }
  }
  if (resetOnly.length > 0) {
    await sql`update webhook_subscriptions set consecutive_exhausted = 0 where id = any(${resetOnly}::uuid[]) and consecutive_exhausted <> 0`.execute(
      db,
    );
  }
}

/** Records one attempt on its own (the manual-retry route). */
export const recordAlone =
  (db: Db): Recorder =>
  async (record) =>
    (await recordAttempts(db, [record]))[0]!;

/**
 * A group-committing recorder: an attempt that finishes while a batch is being written joins the
 * next batch. `isDead` (a crashed dispatcher, in tests) makes every pending record fail unwritten.
 */
export function batchingRecorder(db: Db, opts: { maxBatch?: number; isDead?: () => boolean } = {}): Recorder {
  const maxBatch = opts.maxBatch ?? 256;
  let queue: { record: AttemptRecord; resolve: (o: RecordOutcome) => void; reject: (e: unknown) => void }[] = [];
  let writing = false;

  const flush = async (): Promise<void> => {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        if (opts.isDead?.()) throw new Error('the dispatcher is gone; nothing is recorded');
        const outcomes = await recordAttempts(
          db,
          batch.map((b) => b.record),
        );
        batch.forEach((b, i) => b.resolve(outcomes[i]!));
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    writing = false;
  };

  return (record) =>
    new Promise<RecordOutcome>((resolve, reject) => {
      queue.push({ record, resolve, reject });
      // Attempts finishing in the same turn of the event loop share the first batch.
      if (!writing) {
        writing = true;
        setImmediate(() => void flush());
      }
    });
}
