// Readiness, shared by the partner port's /readyz and the operator listener: the database answers
// and every projection is caught up within READY_MAX_LAG_EVENTS. Every database round trip is
// bounded by READY_TIMEOUT_MS, so a frozen PostgreSQL makes /readyz answer 503 in time instead of
// hanging with it (the pool's own deadlines are much longer).
import { sql } from 'kysely';
import type { Db } from './database.js';
import type { Metrics } from './metrics.js';
import { withDeadline } from './availability.js';
import type { ProjectionRunner } from '../../projections/runner.js';

export interface ReadinessDeps {
  db: Db;
  runner: ProjectionRunner;
  metrics: Metrics;
  config: { readyMaxLagEvents: number; readyTimeoutMs: number };
}

export interface ReadinessBody {
  status: 'ready' | 'not_ready';
  database: 'up' | 'down';
  maxLagEvents: number;
  projections: { name: string; position: string | null; eventsProcessed: number; lag: number; caughtUp: boolean }[];
}

export async function checkReadiness(deps: ReadinessDeps): Promise<{ statusCode: 200 | 503; body: ReadinessBody }> {
  const { db, runner, config, metrics } = deps;
  const bound = config.readyMaxLagEvents;
  const down = {
    statusCode: 503 as const,
    body: { status: 'not_ready' as const, database: 'down' as const, maxLagEvents: bound, projections: [] },
  };
  try {
    await withDeadline(sql`select 1`.execute(db), config.readyTimeoutMs, 'the database');
  } catch {
    return down;
  }
  let status;
  try {
    status = await withDeadline(runner.status(bound + 1), config.readyTimeoutMs, 'the projection status');
  } catch {
    return down;
  }
  const projections = status.map((p) => {
    metrics.projectionLag.set({ projection: p.name }, p.lag);
    return { ...p, caughtUp: p.lag <= bound };
  });
  const ready = projections.every((p) => p.caughtUp);
  return {
    statusCode: ready ? 200 : 503,
    body: { status: ready ? 'ready' : 'not_ready', database: 'up', maxLagEvents: bound, projections },
  };
}

/** Refreshes the projection gauges before a scrape; a database that does not answer leaves them as they were. */
export async function refreshProjectionGauges(deps: ReadinessDeps): Promise<void> {
  try {
    for (const p of await withDeadline(deps.runner.status(), deps.config.readyTimeoutMs, 'the projection status')) {
      deps.metrics.projectionLag.set({ projection: p.name }, p.lag);
      deps.metrics.projectionEventsProcessed.set({ projection: p.name }, p.eventsProcessed);
    }
  } catch {
    // the scrape still answers, with the last known values
  }
}
