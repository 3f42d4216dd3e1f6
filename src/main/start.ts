// `npm start`: the process entry point. It validates the configuration, starts what ROLE asks
// for, and shuts down gracefully on SIGTERM/SIGINT: in-flight requests finish, subscriptions are
// released, connections close, then the process exits.
import { ConfigError, loadConfig } from '../config/config.js';
import { startAdminServer, type AdminServer } from '../admin/server.js';
import { createRuntime } from './runtime.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const rt = await createRuntime(config, { startWork: true });
  const { logger } = rt;
  let admin: AdminServer | undefined;
  if (rt.handle.kind === 'pglite') {
    admin = await startAdminServer({ db: rt.handle.db, store: rt.store, runner: rt.runner }, { dataDir: config.dataDir, logger });
  }
  if (rt.app) {
    const address = await rt.app.listen({ port: config.port, host: config.host });
    logger.info({ address, role: config.role, database: rt.handle.kind, eventStore: rt.store.kind }, 'Travelog is listening');
  } else {
    logger.info({ role: config.role, database: rt.handle.kind, eventStore: rt.store.kind }, 'Travelog worker started');
  }

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await admin?.close();
    await rt.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Travelog failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
