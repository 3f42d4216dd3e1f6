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

/**
 * `manual`: the partner's retry operation; a retryable failure then ends the delivery (Exhausted)
 * instead of scheduling more attempts, as does a delivery re-queued by recover (`single_attempt`).
 */
export async function deliverOnce(deps: DeliverDeps, d: ClaimedDelivery, opts: { manual: boolean }): Promise<DeliverResult> {
  const attemptedAt = new Date();
  const headers = buildDeliveryHeaders({
    body: d.payload,
    secrets: signingSecretsOf(d, deps.secrets, attemptedAt),
    eventType: d.event_type,
    eventId: d.event_id,
    deliveryId: d.id,
  });
  const transport = deps.transport.current();
  const result = await attemptDelivery({
    url: d.url,
    body: d.payload,
    headers,
    timeoutMs: deps.config.webhookTimeoutMs,
    allowedPrivateCidrs: deps.config.webhookAllowedPrivateCidrs,
    agent: transport.agent,
    ...(transport.ca ? { ca: transport.ca } : {}),
  });

  const attemptNumber = d.attempt_count + 1;
  const oneShot = opts.manual || d.single_attempt;
  let status: DeliveryStatus;
  let next: Date | null = null;
  switch (classifyOutcome(result)) {
    case 'succeeded':
      status = 'Succeeded';
      break;
    case 'failed':
      status = 'Failed';
      break;
    case 'retry':
      next = oneShot ? null : nextAttemptAt(attemptNumber, new Date(), deps.config.webhookRetryDelaysSeconds);
      status = next === null ? 'Exhausted' : 'Pending';
      break;
  }
  const record = await (deps.record ?? recordAlone(deps.db))({
    deliveryId: d.id,
    leaseToken: d.lease_token,
    attemptedAt,
    manual: opts.manual,
    result,
    status,
    nextAttemptAt: next,
    countsTowardDisable: !oneShot,
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
      attemptNumber,
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
