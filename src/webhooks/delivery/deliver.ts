// One attempt of one claimed delivery, start to finish: sign (fresh timestamp, stored bytes), run
// the transport (URL policy re-checked, vetted addresses only), decide the delivery's next state
// from the outcome, and record it. Shared by the dispatcher and the manual-retry route, so both
// follow exactly the same rules.
import type { Config } from '../../config/config.js';
import type { Db } from '../../infra/database.js';
import type { Metrics } from '../../infra/metrics.js';
import type { SecretBox } from '../../infra/secrets.js';
import { attemptDelivery } from './attempt.js';
import { buildDeliveryHeaders } from './headers.js';
import { recordAlone, type RecordOutcome, type Recorder } from './attempt-recorder.js';
import type { ClaimedDelivery } from './outbox.js';
import { attemptClassOf, classifyOutcome, type AttemptResult } from './outcome.js';
import { nextAttemptAt } from './retry-schedule.js';
import { signingSecretsOf } from '../subscriptions/signing-secrets.js';
import type { DeliveryStatus } from '../tables.js';
import type { DeliveryTransport } from './transport.js';

export interface DeliverDeps {
  db: Db;
  config: Pick<Config, 'webhookTimeoutMs' | 'webhookAllowedPrivateCidrs' | 'webhookRetryDelaysSeconds'>;
  secrets: SecretBox;
  metrics: Metrics;
  /** The process's agent (and, in tests, trust anchors), owned by the composition root. */
  transport: DeliveryTransport;
  /** How the attempt is recorded; default on its own (the dispatcher batches). */
  record?: Recorder;
  /** Where each attempt's line goes (info); without it attempts are not logged. */
  logger?: { info(fields: object, message: string): void };
}

export interface DeliverResult {
  result: AttemptResult;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  record: RecordOutcome;
}

/** A delivery ready to go: its headers signed for this attempt. */
interface PreparedAttempt {
  delivery: ClaimedDelivery;
  attemptedAt: Date;
  headers: Record<string, string>;
}

/** What the attempt's outcome means for the delivery: its next state and, for a retry, when. */
interface Verdict {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  /** Whether this attempt counts toward the subscription's auto-disable (not for one-shot attempts). */
  countsTowardDisable: boolean;
}

/**
 * One attempt as a pipeline: prepare (sign the stored bytes with a fresh timestamp), send (the URL
 * policy re-checked, vetted addresses only), settle (the next state from the outcome, recorded,
 * counted and logged). `manual`: the partner's retry operation; a retryable failure then ends the
 * delivery (Exhausted) instead of scheduling more attempts, as does a delivery re-queued by recover
 * (`single_attempt`).
 */
export async function deliverOnce(deps: DeliverDeps, d: ClaimedDelivery, opts: { manual: boolean }): Promise<DeliverResult> {
  const prepared = prepare(deps, d);
  const result = await send(deps, prepared);
  return settle(deps, prepared, result, opts);
}

function prepare(deps: DeliverDeps, d: ClaimedDelivery): PreparedAttempt {
  const attemptedAt = new Date();
  const headers = buildDeliveryHeaders({
    body: d.payload,
    secrets: signingSecretsOf(d, deps.secrets, attemptedAt),
    eventType: d.event_type,
    eventId: d.event_id,
    deliveryId: d.id,
  });
  return { delivery: d, attemptedAt, headers };
}

/** Never rejects: every failure is an AttemptResult with its failure class. */
function send(deps: DeliverDeps, { delivery, headers }: PreparedAttempt): Promise<AttemptResult> {
  const transport = deps.transport.current();
  return attemptDelivery({
    url: delivery.url,
    body: delivery.payload,
    headers,
    timeoutMs: deps.config.webhookTimeoutMs,
    allowedPrivateCidrs: deps.config.webhookAllowedPrivateCidrs,
    agent: transport.agent,
    ...(transport.ca ? { ca: transport.ca } : {}),
  });
}

function verdictOf(deps: DeliverDeps, d: ClaimedDelivery, result: AttemptResult, opts: { manual: boolean }): Verdict {
  const oneShot = opts.manual || d.single_attempt;
  switch (classifyOutcome(result)) {
    case 'succeeded':
      return { status: 'Succeeded', nextAttemptAt: null, countsTowardDisable: !oneShot };
    case 'failed':
      return { status: 'Failed', nextAttemptAt: null, countsTowardDisable: !oneShot };
    case 'retry': {
      const next = oneShot ? null : nextAttemptAt(d.attempt_count + 1, new Date(), deps.config.webhookRetryDelaysSeconds);
      return { status: next === null ? 'Exhausted' : 'Pending', nextAttemptAt: next, countsTowardDisable: !oneShot };
    }
  }
}

async function settle(
  deps: DeliverDeps,
  prepared: PreparedAttempt,
  result: AttemptResult,
  opts: { manual: boolean },
): Promise<DeliverResult> {
  const d = prepared.delivery;
  const { status, nextAttemptAt: next, countsTowardDisable } = verdictOf(deps, d, result, opts);
  const record = await (deps.record ?? recordAlone(deps.db))({
    deliveryId: d.id,
    leaseToken: d.lease_token,
    attemptedAt: prepared.attemptedAt,
    manual: opts.manual,
    result,
    status,
    nextAttemptAt: next,
    countsTowardDisable,
  });
  deps.metrics.webhookDeliveries.inc({ outcome: status === 'Pending' ? 'retry_scheduled' : status.toLowerCase() });
  const statusClass = attemptClassOf(result);
  deps.metrics.webhookAttempts.inc({ class: statusClass });
  // Identifiers, class and timing only: never the body, the URL (its query can carry a partner's
  // token) or a secret. A lease lost to a delete or expiry is logged too (recorded: false).
  deps.logger?.info(
    {
      tenantId: d.tenant_id,
      subscriptionId: d.subscription_id,
      deliveryId: d.id,
      attemptNumber: d.attempt_count + 1,
      statusClass,
      statusCode: result.statusCode ?? null,
      durationMs: result.latencyMs,
      deliveryStatus: status,
      manual: opts.manual,
      recorded: record.recorded,
    },
    'webhook delivery attempt',
  );
  return { result, status, nextAttemptAt: next, record };
}
