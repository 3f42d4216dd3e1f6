// Liveness and readiness on the partner port: public, unauthenticated, outside /api/v1. Metrics
// are not here: they are served, with the same probes, on the operator listener only
// (src/main/operator-server.ts, METRICS_PORT), which is not exposed to partners.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkReadiness } from '../../infra/readiness.js';

// The partner port's readiness says whether and why not, never how far: projection positions and
// event counts are global, so any caller could watch every tenant's activity move (outside try,
// session 23). The operator listener keeps the whole body (src/main/operator-server.ts).
const ReadyBody = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    database: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    projectionsCaughtUp: Type.Boolean({
      description: 'Every projection within READY_MAX_LAG_EVENTS of the log (false while the database is down).',
    }),
  },
  { $id: 'Readiness' },
);

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Liveness: the process is up',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Readiness: database reachable and projections caught up within the bound',
        response: { 200: ReadyBody, 503: ReadyBody },
      },
    },
    async (_req, reply) => {
      const { statusCode, body } = await checkReadiness(app.deps);
      return reply.code(statusCode).send({
        status: body.status,
        database: body.database,
        projectionsCaughtUp: body.database === 'up' && body.projections.every((p) => p.caughtUp),
      });
    },
  );
};
