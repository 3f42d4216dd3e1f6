// Traceability: every request gets an id (a sane inbound X-Request-Id is kept), echoed in the
// X-Request-Id header; one log line per request names the API key that made it; reads of
// personal data are stored in the access log before the response leaves.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AccessLogWriter } from '../access-log.js';
import { logRequestCompleted } from '../request-line.js';

export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestContextPlugin = fp(
  async (app: FastifyInstance) => {
    const accessLog = new AccessLogWriter(app.deps.db);
    app.addHook('onRequest', async (request, reply) => {
      reply.header('X-Request-Id', request.id);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const personal = request.routeOptions.config.personalData;
      const principal = request.principal;
      if (personal && principal && request.method === 'GET' && reply.statusCode < 300) {
        const params = request.params as Record<string, string | undefined>;
        await accessLog.record({
          tenant_id: principal.tenantId,
          api_key_id: principal.apiKeyId,
          request_id: request.id,
          method: request.method,
          resource_type: personal.resourceType,
          resource_id: params[personal.idParam ?? 'id'] ?? null,
        });
      }
      return payload;
    });

    app.addHook('onResponse', async (request, reply) => {
      logRequestCompleted(request.log, {
        requestId: request.id,
        apiKeyId: request.principal?.apiKeyId,
        tenantId: request.principal?.tenantId,
        method: request.method,
        route: request.routeOptions.url,
        // The path, and the query's parameter names without their values: a value can be free
        // text a partner typed (a payout batch's deletion `reason`), and logs carry no personal data.
        ...urlForLog(request.url, request.routeOptions.schema?.querystring),
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      });
    });
  },
  { name: 'request-context', dependencies: ['deps'] },
);

/**
 * `/a/b?x=1&y=2` as `{ url: '/a/b', query: ['x', 'y'] }` (no `query` without one). A name the route's
 * query schema does not declare is written `?`: an unknown name is the client's own text too (and a 400).
 */
export function urlForLog(url: string, querySchema: unknown): { url: string; query?: string[] } {
  const q = url.indexOf('?');
  if (q === -1) return { url };
  const declared = (querySchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const names = new Set<string>();
  for (const name of new URLSearchParams(url.slice(q + 1)).keys()) names.add(Object.hasOwn(declared, name) ? name : '?');
  return { url: url.slice(0, q), ...(names.size > 0 ? { query: [...names] } : {}) };
}
