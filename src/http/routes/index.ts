// Every partner route group, mounted under /api/v1, and the named schemas they reference: both read
// from the feature registry (src/features/index.ts), so this file never names a feature.
import type { FastifyPluginAsync } from 'fastify';
import { features } from '../../features/index.js';

/**
 * Named schemas referenced with $ref. They are added on the root instance (see buildApp):
 * a schema added inside a route plugin would give that plugin a fresh schema controller and
 * silently drop the strict body validator.
 */
export const sharedSchemas = features.flatMap((f) => f.schemas ?? []);

export const apiRoutes: FastifyPluginAsync = async (app) => {
  for (const routes of features.flatMap((f) => f.routes ?? [])) await app.register(routes);
};
