// Liveness, readiness and metrics: public, unauthenticated, outside /api/v1.
import { sql } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const ReadyBody = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  database: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  maxLagEvents: Type.Integer(),
  projections: Type.Array(Type.Object({
    name: Type.String(), position: Type.Union([Type.String(), Type.Null()]), eventsProcessed: Type.Integer(), lag: Type.Integer(), caughtUp: Type.Boolean(),
  })),
}, { $id: 'Readiness' });

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', {
    schema: { tags: ['Operations'], summary: 'Liveness: the process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', {
    schema: {
      tags: ['Operations'], summary: 'Readiness: database reachable and projections caught up within the bound',
      response: { 200: ReadyBody, 503: ReadyBody },
    },
  }, async (_req, reply) => {
    const { db, runner, config, metrics } = app.deps;
    const bound = config.readyMaxLagEvents;
    try {
      await sql`select 1`.execute(db);
    } catch {
      return reply.code(503).send({ status: 'not_ready', database: 'down', maxLagEvents: bound, projections: [] });
    }
    const projections = (await runner.status(bound + 1)).map((p) => {
      metrics.projectionLag.set({ projection: p.name }, p.lag);
      return { ...p, caughtUp: p.lag <= bound };
    });
    const ready = projections.every((p) => p.caughtUp);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', database: 'up', maxLagEvents: bound, projections });
  });

  app.get('/metrics', { schema: { tags: ['Operations'], summary: 'Prometheus metrics', hide: true } }, async (_req, reply) => {
    const { metrics, runner } = app.deps;
    for (const p of await runner.status()) {
      metrics.projectionLag.set({ projection: p.name }, p.lag);
      metrics.projectionEventsProcessed.set({ projection: p.name }, p.eventsProcessed);
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
};
