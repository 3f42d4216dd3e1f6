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
        ...urlForLog(request.url, request.routeOptions.schema?.querystring, request.routeOptions.url, request.params),
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      });
    });
  },
  { name: 'request-context', dependencies: ['deps'] },
);

/** What a path parameter of ours looks like: a UUID or an event id (any case). */
const ID_SEGMENT = /^(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|evt_[0-9A-Fa-f]{32})$/;
/** A path segment kept in the log of an unmatched route: a lower-case word or an id, nothing a person wrote. */
const PLAIN_SEGMENT = /^[a-z0-9-]{1,64}$/;

/**
 * `/a/b?x=1&y=2` as `{ url: '/a/b', query: ['x', 'y'] }` (no `query` without one). A name the route's
 * query schema does not declare is written `?`: an unknown name is the client's own text too (and a 400).
 * The path's own client text is masked the same way: a parameter that is not an id (a refused
 * `/employees/ana.horvat@acme.hr`), or, on an unmatched route, any segment that is not a plain
 * lower-case word or id, is written `?`.
 */
export function urlForLog(url: string, querySchema: unknown, route?: string, params?: unknown): { url: string; query?: string[] } {
  const q = url.indexOf('?');
  const path = maskedPath(q === -1 ? url : url.slice(0, q), route, params);
  if (q === -1) return { url: path };
  const declared = (querySchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const names = new Set<string>();
  for (const name of new URLSearchParams(url.slice(q + 1)).keys()) names.add(Object.hasOwn(declared, name) ? name : '?');
  return { url: path, ...(names.size > 0 ? { query: [...names] } : {}) };
}

function maskedPath(path: string, route: string | undefined, params: unknown): string {
  if (route !== undefined) {
    // The common case costs one test per parameter: every parameter an id, the path as it came.
    const values = params !== null && typeof params === 'object' ? Object.values(params) : [];
    if (values.every((v) => typeof v === 'string' && ID_SEGMENT.test(v))) return path;
    const pattern = route.split('/');
    return path
      .split('/')
      .map((segment, i) => (pattern[i]?.startsWith(':') && !ID_SEGMENT.test(segment) ? '?' : segment))
      .join('/');
  }
  return path
    .split('/')
    .map((segment) => (segment === '' || PLAIN_SEGMENT.test(segment) || ID_SEGMENT.test(segment) ? segment : '?'))
    .join('/');
}
