// `npm start`: the process entry point. It validates the configuration, starts the operator
// listener (metrics and probes, before anything needs the database), then what ROLE asks for, and
// shuts down gracefully on SIGTERM/SIGINT: in-flight requests finish, subscriptions are released,
// connections close, then the process exits.
import { ConfigError, loadConfig } from '../config/config.js';
import { loadEnvFile } from '../config/env-file.js';
import { startAdminServer, type AdminServer } from '../admin/server.js';
import { createMetrics } from '../infra/metrics.js';
import { createRuntime, type Runtime } from './runtime.js';
import { startOperatorServer } from './operator-server.js';
import { createProcessLogger } from './logger.js';
import { tuneGarbageCollector } from './gc-tuning.js';

async function main(): Promise<void> {
  tuneGarbageCollector();
  let config;
  try {
    loadEnvFile();
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // Lines are gathered and written in 64 KB pieces, not one write per line (logger.ts).
  const { logger, flush: flushLog } = createProcessLogger(config.logLevel);
  // Every background loop catches its own errors; this is the net under a promise one of them
  // forgot. Node's default (end the process) would turn one missed catch into an outage.
  process.on('unhandledRejection', (err) =>
    logger.error({ err }, 'unhandled promise rejection (a bug: please report); the process goes on'),
  );

  const metrics = createMetrics({ defaultMetrics: true });
  const operator = await startOperatorServer({
    host: config.metricsHost,
    port: config.metricsPort,
    metrics,
    logger,
    readyMaxLagEvents: config.readyMaxLagEvents,
  });
  // Not `address`: tests and tools read the partner address from that key.
  logger.info({ operatorAddress: operator.address, role: config.role }, 'operator listener (/metrics, /healthz, /readyz) is listening');

  let rt: Runtime | undefined;
  let admin: AdminServer | undefined;
  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    operator.setPhase('stopping');
    logger.info({ signal }, 'shutting down');
    if (!rt) {
      // Still waiting for the database: nothing to release.
      await operator.close();
      await flushLog();
      process.exit(0);
    }
    // A close that fails still ends the process: one that stayed up in "stopping" would keep its
    // workers running until a second signal (runtime.ts, close).
    let code = 0;
    const running = rt;
    for (const close of [() => admin?.close(), () => running.close()]) {
      try {
        await close();
      } catch (err) {
        logger.error({ err }, 'shutting down: a part did not close cleanly; exiting');
        code = 1;
      }
    }
    await operator.close().catch(() => undefined);
    logger.info('stopped');
    await flushLog();
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  rt = await createRuntime(config, { startWork: true, logger, metrics });
  if (stopping) return; // a signal came while starting: shutdown takes it from here
  operator.attach({ db: rt.handle.db, runner: rt.runner, metrics, config });
  if (rt.handle.kind === 'pglite') {
    admin = await startAdminServer(
      { db: rt.handle.db, store: rt.store, runner: rt.runner, perDiemRateTables: rt.perDiems.tables },
      { dataDir: config.dataDir, logger, port: config.adminPort },
    );
  }
  if (rt.app) {
    const address = await rt.app.listen({ port: config.port, host: config.host });
    logger.info({ address, role: config.role, database: rt.handle.kind, eventStore: rt.store.kind }, 'Travelog is listening');
  } else {
    logger.info({ role: config.role, database: rt.handle.kind, eventStore: rt.store.kind }, 'Travelog worker started');
  }
  operator.setPhase('running');
  // Operators and tools read the address from these lines: out now, not at the next batch.
  await flushLog();
}

/**
 * What an operator reads when the process cannot start. A refusal of the operating system (DATA_DIR
 * a file or not writable, a port in use) names the call and the path or address: its stack, lines
 * of our own source, says nothing more. Anything else keeps its stack, as a defect to report.
 */
function startFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (typeof (err as NodeJS.ErrnoException).syscall === 'string') return err.message;
  return err.stack ?? err.message;
}

main().catch((err: unknown) => {
  process.stderr.write(`Travelog failed to start: ${startFailure(err)}\n`);
  process.exit(1);
});
