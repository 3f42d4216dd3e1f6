// The webhook work of a process with ROLE all or webhooks: the catalog projector (events to
// deliveries), the dispatcher (deliveries to partners) and the daily retention job.
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { DatabaseHandle, Db } from '../infra/database.js';
import { registerWebhookGauges, type Metrics } from '../infra/metrics.js';
import type { SecretBox } from '../infra/secrets.js';
import type { EventStore, Subscription } from '../eventstore/port.js';
import { startCatalogProjector } from './catalog/projector.js';
import { startDispatcher, type Dispatcher, type DispatcherOptions } from './delivery/dispatcher.js';
import { scheduleDailyCleanup } from './delivery/retention.js';
import type { DeliveryTransport } from './delivery/transport.js';
import type { DeliveryWakeup } from './delivery/wakeup.js';
import { openLivenessSession } from './delivery/liveness.js';
import { readWebhookBacklog } from './delivery/backlog.js';
import { retryWhileUnavailable, withDeadline } from '../infra/availability.js';

export interface WebhookWorkDeps {
  config: Config;
  logger: Logger;
  db: Db;
  /** The handle under `db`: on a server, each dispatcher opens its liveness session from it. */
  handle?: Pick<DatabaseHandle, 'connectionString' | 'searchPath'>;
  store: EventStore;
  secrets: SecretBox;
  metrics: Metrics;
  /** The process's delivery agent and dispatcher wake-up, created by the composition root. */
  delivery: { transport: DeliveryTransport; wakeup: DeliveryWakeup };
}

export interface WebhookWork {
  projector: Subscription;
  dispatcher: Dispatcher;
  /** Starts a further dispatcher in this process (tests: a worker that replaces a crashed one). */
  startDispatcher(opts?: DispatcherOptions): Dispatcher;
  stop(): Promise<void>;
}

export async function startWebhookWork(deps: WebhookWorkDeps): Promise<WebhookWork> {
  const logger = deps.logger.child({ component: 'webhooks' });
  const { transport, wakeup } = deps.delivery;
  const connectionString = deps.handle?.connectionString;
  // One session per dispatcher; its application_name tells operators (and tests) whose it is.
  const openSession = connectionString
    ? () =>
        openLivenessSession({
          connectionString,
          searchPath: deps.handle?.searchPath,
          name: `travelog-webhook-dispatcher:${process.pid}`,
          onLost: (err) =>
            logger.warn({ err }, 'webhook dispatcher liveness session lost; reconnecting (claims rely on lease expiry meanwhile)'),
        })
    : undefined;
  const dispatcherDeps = {
    db: deps.db,
    config: deps.config,
    secrets: deps.secrets,
    metrics: deps.metrics,
    logger,
    transport,
    wakeup,
    ...(openSession ? { openSession } : {}),
  };
  const extra: Dispatcher[] = [];
  const dispatcher = startDispatcher(dispatcherDeps);
  // Creating the consumer group needs the database: a moment of unavailability is waited out.
  const projector = await retryWhileUnavailable(() => startCatalogProjector({ db: deps.db, store: deps.store, logger, wakeup }), {
    onRetry: (err) => logger.warn({ err }, 'starting the webhook catalog projector: database unavailable, retrying'),
  });
  const retention = scheduleDailyCleanup(deps.db, logger);
  // The role that delivers is the one whose registry carries the backlog gauges.
  registerWebhookGauges(deps.metrics, () =>
    withDeadline(readWebhookBacklog(deps.db, deps.store), deps.config.readyTimeoutMs, 'the webhook backlog'),
  );
  return {
    projector,
    dispatcher,
    startDispatcher(opts) {
      const d = startDispatcher(dispatcherDeps, opts);
      extra.push(d);
      return d;
    },
    async stop() {
      // Producers first, then the attempts in flight finish and are recorded, then sockets close.
      await projector.stop();
      await retention.stop();
      await Promise.all([dispatcher, ...extra].map((d) => d.stop()));
      transport.close();
    },
  };
}
