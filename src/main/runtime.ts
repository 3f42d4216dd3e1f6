// Composition root: opens the database and the event store, migrates, and starts the parts this
// process's ROLE asks for. Shared by `npm start`, the CLI's direct mode and the tests.
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { openDatabase, type DatabaseHandle } from '../infra/database.js';
import { migrateToLatest } from '../infra/migrate.js';
import { retryWhileUnavailable, waitForDatabase } from '../infra/availability.js';
import { createMetrics, type Metrics } from '../infra/metrics.js';
import { cursorSeal } from '../infra/cursor-seal.js';
import { resolveSecretsKey, secretBox, type SecretBox } from '../infra/secrets.js';
import { openEventStore } from '../eventstore/open-event-store.js';
import { PrincipalCache } from '../tenancy/principal-cache.js';
import { ReadCache } from '../http/read-cache.js';
import type { EventStore } from '../eventstore/port.js';
import { buildApp } from '../http/app.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { allProjections } from '../../projections/index.js';
import { startBackgroundWork, type BackgroundWork } from './background.js';
import { DeliveryTransport } from '../webhooks/delivery/transport.js';
import { TravelEntryWrites } from '../application/travel-entries/writes.js';
import { ReadModelGate } from '../application/read-model-gate.js';
import { PerDiemCalculator } from '../application/per-diems/calculator.js';
import { PerDiemRateTables } from '../application/per-diems/rate-tables.js';
import { DeliveryWakeup } from '../webhooks/delivery/wakeup.js';

export interface Runtime {
  config: Config;
  logger: Logger;
  handle: DatabaseHandle;
  store: EventStore;
  runner: ProjectionRunner;
  secrets: SecretBox;
  metrics: Metrics;
  /** Present when the role serves the partner API. */
  app: FastifyInstance | undefined;
  background: BackgroundWork | undefined;
  /** The per-diem engine with its data (the admin API refreshes its rate tables after an import). */
  perDiems: PerDiemCalculator;
  /** The webhook delivery agent and dispatcher wake-up this process's routes and workers share. */
  delivery: { transport: DeliveryTransport; wakeup: DeliveryWakeup };
  close(): Promise<void>;
}

export interface RuntimeOptions {
  logger?: Logger;
  /** An already-open database (tests); otherwise opened from the config. */
  handle?: DatabaseHandle;
  /** Start projections, workers and schedulers for the role (false: only open, e.g. for the CLI). */
  startWork?: boolean;
  /** A registry created earlier (the operator listener serves it before the runtime exists). */
  metrics?: Metrics;
  /** Tests and benchmarks only: certificates (PEM) webhook deliveries trust instead of the system store. */
  webhookTrustForTesting?: readonly string[];
}

export async function createRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const logger = opts.logger ?? pino({ level: config.logLevel });
  const handle =
    opts.handle ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      connectTimeoutMs: config.dbConnectTimeoutMs,
      statementTimeoutMs: config.dbStatementTimeoutMs,
      idleInTransactionTimeoutMs: config.dbIdleInTransactionTimeoutMs,
      onConnectionError: (err) => logger.warn({ err }, 'database connection lost; the pool opens a new one when needed'),
    }));
  // A server process waits for PostgreSQL instead of exiting (the operator listener says "not
  // ready" meanwhile); the CLI fails at once instead, as a command should.
  const onRetry =
    (what: string) =>
    (err: unknown, attempt: number, delayMs: number): void =>
      logger.warn(
        { err: { message: (err as Error)?.message, code: (err as { code?: unknown })?.code }, attempt, delayMs },
        `${what}: database unavailable, retrying`,
      );
  // Migrations run without the statement bounds (a long one is legitimate); a server's outlast a restart.
  const migrate = () => handle.unbounded((db) => migrateToLatest(db, handle.searchPath));
  if (opts.startWork === true) {
    await waitForDatabase(handle.db, { onRetry: onRetry('waiting for PostgreSQL') });
    await retryWhileUnavailable(migrate, { onRetry: onRetry('migrating') });
  } else {
    await migrate();
  }
  const store = await openEventStore(config, handle, { onError: (err) => logger.warn({ err }, 'event store listener error') });
  const metrics = opts.metrics ?? createMetrics({ defaultMetrics: opts.startWork === true });
  const secretsKey = resolveSecretsKey(config.secretsKey, config.dataDir);
  const secrets = secretBox(secretsKey);
  const delivery = { transport: new DeliveryTransport(opts.webhookTrustForTesting), wakeup: new DeliveryWakeup() };
  const runner = new ProjectionRunner({ db: handle.db, store, logger, projections: allProjections() });

  const serveApi = opts.startWork !== false && (config.role === 'all' || config.role === 'api');
  const principals = serveApi
    ? await PrincipalCache.open(handle, (err) => logger.warn({ err }, 'tenancy listener lost; API keys are read on every request'))
    : undefined;
  const readCache = serveApi
    ? await ReadCache.open(handle, (err) => logger.warn({ err }, 'read-model listener lost; every GET reads the database'))
    : undefined;
  const perDiems = new PerDiemCalculator(handle.db, new PerDiemRateTables(store));
  const readModels = new ReadModelGate(store, runner);
  const app = serveApi
    ? await buildApp(
        {
          config,
          db: handle.db,
          store,
          runner,
          secrets,
          cursors: cursorSeal(secretsKey),
          metrics,
          principals,
          readCache,
          delivery,
          readModels,
          travelEntries: new TravelEntryWrites(handle.db, store, perDiems, readModels),
          perDiems,
        },
        logger,
      )
    : undefined;
  const background =
    opts.startWork === false ? undefined : await startBackgroundWork({ config, logger, handle, store, runner, secrets, metrics, delivery });

  let closed = false;
  return {
    config,
    logger,
    handle,
    store,
    runner,
    secrets,
    metrics,
    app,
    background,
    delivery,
    perDiems,
    async close() {
      if (closed) return;
      closed = true;
      // In-flight requests finish first, then subscriptions are released, then connections. A step
      // that fails does not keep the later ones from running: with the database frozen, Fastify's
      // close gave up on a hook (AVV_ERR_READY_TIMEOUT) and the projections and webhook worker went
      // on running in a process that never exited (an operator's chaos try, session 24). The first
      // failure is thrown once every step has run.
      const failures: unknown[] = [];
      const step = async (close: () => unknown): Promise<void> => {
        try {
          await close();
        } catch (err) {
          failures.push(err);
        }
      };
      await step(() => app?.close());
      await step(() => principals?.close());
      await step(() => readCache?.close());
      await step(() => background?.stop());
      await step(() => delivery.transport.close()); // the manual-retry route's sockets, in an API-only process
      await step(() => runner.stop());
      await step(() => store.close());
      if (!opts.handle) await step(() => handle.close());
      if (failures.length > 0) throw failures[0];
    },
  };
}
