// Prometheus metrics, one registry per process (never the global one, so tests can build several
// apps side by side).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  projectionLag: Gauge<'projection'>;
  projectionEventsProcessed: Gauge<'projection'>;
  commandsTotal: Counter<'outcome'>;
  webhookDeliveries: Counter<'outcome'>;
  /** Delivery attempts by the class of their outcome (2xx, 3xx, 4xx, 5xx, network, timeout, blocked). */
  webhookAttempts: Counter<'class'>;
  /** Requests answered 429, by policy (per-key, auth-failures). */
  rateLimited: Counter<'policy'>;
  /** Rate-limit store (Redis) failures; each one let a request through unlimited (fail open). */
  rateLimitStoreErrors: Counter;
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    projectionLag: new Gauge({
      name: 'projection_lag_events',
      help: 'Visible events not yet applied by a projection',
      labelNames: ['projection'],
      registers: [registry],
    }),
    projectionEventsProcessed: new Gauge({
      name: 'projection_events_processed',
      help: 'Events applied since the last rebuild',
      labelNames: ['projection'],
      registers: [registry],
    }),
    commandsTotal: new Counter({
      name: 'commands_total',
      help: 'Commands handled, by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome class (2xx/3xx/4xx/5xx/network/timeout/blocked)',
      labelNames: ['class'],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'rate_limited_requests_total',
      help: 'Partner-API requests answered 429, by policy',
      labelNames: ['policy'],
      registers: [registry],
    }),
    rateLimitStoreErrors: new Counter({
      name: 'rate_limit_store_errors_total',
      help: 'Rate-limit checks that went through unlimited: the store failed, or was left alone for 5 s after a failure',
      registers: [registry],
    }),
  };
}

/** What the webhook gauges read from the database at scrape time. */
export interface WebhookBacklog {
  pending: number;
  /** Age of the oldest Pending delivery whose attempt is due; 0 when none is due. */
  oldestDueAgeSeconds: number;
  disabledSubscriptions: number;
  /** Catalog events not yet turned into deliveries; undefined when it cannot be told. */
  catalogLagEvents: number | undefined;
}

export const WEBHOOK_GAUGE_NAMES = [
  'webhook_deliveries_pending',
  'webhook_oldest_due_delivery_age_seconds',
  'webhook_subscriptions_disabled',
  'webhook_catalog_lag_events',
] as const;

/**
 * The webhook backlog gauges, computed when the registry is scraped (one query set per scrape,
 * shared by the four gauges). Registered by the process that runs the webhook worker, so a
 * scrape of that role's registry carries them; registering again replaces the source.
 */
export function registerWebhookGauges(metrics: Metrics, read: () => Promise<WebhookBacklog>): void {
  for (const name of WEBHOOK_GAUGE_NAMES) metrics.registry.removeSingleMetric(name);
  let current: Promise<WebhookBacklog> | undefined;
  // The registry starts the four collect() calls of one scrape together: they share the read in
  // flight; a scrape after it settled reads afresh.
  const backlog = (): Promise<WebhookBacklog> => {
    current ??= read().finally(() => {
      current = undefined;
    });
    return current;
  };
  const gauge = (name: (typeof WEBHOOK_GAUGE_NAMES)[number], help: string, pick: (b: WebhookBacklog) => number | undefined): void => {
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      async collect() {
        // The database away (or frozen past the reader's deadline): the gauge keeps its last
        // value, so a scrape during an outage still answers with every other metric.
        const b = await backlog().catch(() => undefined);
        const value = b && pick(b);
        if (value !== undefined) this.set(value);
      },
    });
  };
  gauge('webhook_deliveries_pending', 'Webhook deliveries waiting for an attempt (due or scheduled)', (b) => b.pending);
  gauge(
    'webhook_oldest_due_delivery_age_seconds',
    'How long the oldest due webhook delivery has been waiting',
    (b) => b.oldestDueAgeSeconds,
  );
  gauge(
    'webhook_subscriptions_disabled',
    'Webhook subscriptions disabled (automatically or otherwise), not deleted',
    (b) => b.disabledSubscriptions,
  );
  gauge('webhook_catalog_lag_events', 'Catalog events in the store not yet turned into webhook deliveries', (b) => b.catalogLagEvents);
}
