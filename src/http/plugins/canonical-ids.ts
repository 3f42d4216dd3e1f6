// UUIDs in the path are read without case, as RFC 9562 asks of UUIDs on input: one sent upper-case
// is lower-cased before validation, so every handler builds its stream name, its queries and its
// access-log record from the canonical form. Before, GET found the record (the read models compare
// `::uuid`) while PUT, DELETE, history and as-of answered 404: the stream name kept the case (an
// outside probe, session 16). Only UUID-shaped values change; a path's codes and other names do not.
// The hook is added to the routes that have path parameters only, so `/healthz` and the lists do
// not pay for it.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction, preValidationHookHandler } from 'fastify';
import { isUuid } from '../../../projections/document-queries.js';

function lowerCaseUuidParams(request: FastifyRequest, _reply: unknown, done: HookHandlerDoneFunction): void {
  const params = request.params as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && value !== value.toLowerCase() && isUuid(value)) params[name] = value.toLowerCase();
  }
  done();
}

export const canonicalIdsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      if (!route.url.includes(':')) return;
      const own = route.preValidation === undefined ? [] : [route.preValidation].flat();
      route.preValidation = [lowerCaseUuidParams as preValidationHookHandler, ...own];
    });
  },
  { name: 'canonical-ids' },
);
