// What the HTTP layer is given: built once by the process entry point (or a test) and passed in.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import type { EventStore } from '../eventstore/port.js';
import type { Db } from '../infra/database.js';
import type { CursorSeal } from '../infra/cursor-seal.js';
import type { SecretBox } from '../infra/secrets.js';
import type { Metrics } from '../infra/metrics.js';
import type { PrincipalCache } from '../tenancy/principal-cache.js';
import type { ReadCache } from './read-cache.js';
import type { ProjectionRunner } from '../../projections/runner.js';
import type { TravelEntryWrites } from '../application/travel-entries/writes.js';
import type { ReadModelGate } from '../application/read-model-gate.js';
import type { PerDiemCalculator } from '../application/per-diems/calculator.js';
import type { DeliveryTransport } from '../webhooks/delivery/transport.js';
import type { DeliveryWakeup } from '../webhooks/delivery/wakeup.js';

export interface AppDeps {
  config: Config;
  db: Db;
  store: EventStore;
  /** Projection status, lag and read-your-writes waits. */
  runner: ProjectionRunner;
  /** Confirms a lookup's miss against the log before a 400 names it (read-model-gate.ts). */
  readModels: ReadModelGate;
  secrets: SecretBox;
  /** Seals the cursors partners are given (cursor-seal.ts): they hold store-wide positions. */
  cursors: CursorSeal;
  metrics: Metrics;
  /** Authenticated keys remembered between requests; without it every request reads its key. */
  principals?: PrincipalCache;
  /** Read-model rows cached per process, answered as fresh as the database; without it every GET reads. */
  readCache?: ReadCache;
  /** The travel-entry application service (it holds process state: entry-number queues, employees known to exist). */
  travelEntries: TravelEntryWrites;
  /** The per-diem engine with its data (rate tables, exchange rates, zones). */
  perDiems: PerDiemCalculator;
  /** The process's webhook delivery agent (manual retry) and dispatcher wake-up (recover). */
  delivery: { transport: DeliveryTransport; wakeup: DeliveryWakeup };
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export const depsPlugin = (deps: AppDeps) =>
  fp(
    async (app: FastifyInstance) => {
      app.decorate('deps', deps);
    },
    { name: 'deps' },
  );
