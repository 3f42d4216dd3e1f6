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
      name: 'http_request_duration_seconds', help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status_code'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [registry],
    }),
    projectionLag: new Gauge({ name: 'projection_lag_events', help: 'Visible events not yet applied by a projection', labelNames: ['projection'], registers: [registry] }),
    projectionEventsProcessed: new Gauge({ name: 'projection_events_processed', help: 'Events applied since the last rebuild', labelNames: ['projection'], registers: [registry] }),
    commandsTotal: new Counter({ name: 'commands_total', help: 'Commands handled, by outcome', labelNames: ['outcome'], registers: [registry] }),
    webhookDeliveries: new Counter({ name: 'webhook_delivery_attempts_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'], registers: [registry] }),
    rateLimited: new Counter({ name: 'rate_limited_requests_total', help: 'Partner-API requests answered 429, by policy', labelNames: ['policy'], registers: [registry] }),
    rateLimitStoreErrors: new Counter({
      name: 'rate_limit_store_errors_total', help: 'Rate-limit store failures (the request went through unlimited)', registers: [registry],
    }),
  };
}
