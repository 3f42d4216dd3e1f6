// API-key authentication for the partner API. A route opts in with `config: { scope }`:
// no or an unknown key is 401, a key without the scope is 403. Tenant isolation follows from the
// principal: every handler reads and writes only request.principal.tenantId.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from '../../tenancy/authenticator.js';
import type { ApiKeyPrincipal, Scope } from '../../tenancy/model.js';
import { problem, sendProblem } from '../problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a key needs for this route; absent on public routes. */
    scope?: Scope;
    /** Reads of this route are recorded in the access log (resources that carry personal data). */
    personalData?: { resourceType: string; /** Path parameter naming the resource read (default `id`). */ idParam?: string };
  }
  interface FastifyRequest {
    principal: ApiKeyPrincipal | undefined;
  }
}

export function principalOf(request: FastifyRequest): ApiKeyPrincipal {
  if (!request.principal) throw new Error('route without a scope asked for the principal');
  return request.principal;
}

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('principal', undefined);
    const authenticator = new ApiKeyAuthenticator(app.deps.db, app.deps.principals);
    app.addHook('onRequest', async (request, reply) => {
      const scope = request.routeOptions.config.scope;
      if (!scope) return;
      const header = request.headers.authorization;
      const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
      const presented = match?.[1];
      // A key the cache has verified before costs no lookup; any other holds a unit of its address's
      // failure budget while the database is asked (rate-limit.ts).
      let principal = presented === undefined ? undefined : await authenticator.fromCache(presented);
      if (principal === undefined && presented !== undefined) {
        const attempt = await app.rateLimits?.keyCheckStarted(request, reply, presented);
        if (attempt && 'refused' in attempt) return attempt.refused;
        try {
          principal = await authenticator.lookUp(presented);
          // A wrong key counts toward the address's budget before its unit is released.
          if (!principal) await app.rateLimits?.authFailed(request);
        } finally {
          attempt?.release();
        }
      } else if (principal === undefined && header !== undefined) {
        // A header that holds no Bearer key is a wrong key too; a missing header guesses nothing.
        await app.rateLimits?.authFailed(request);
      }
      if (!principal) {
        reply.header('WWW-Authenticate', 'Bearer realm="travelog"');
        return sendProblem(
          reply,
          problem(
            'UNAUTHENTICATED',
            request.id,
            header === undefined ? 'Send an API key as "Authorization: Bearer <key>".' : 'The API key is invalid or revoked.',
          ),
        );
      }
      request.principal = principal;
      if (await app.rateLimits?.keyUsed(request, reply)) return reply;
      if (!principal.scopes.includes(scope)) {
        return sendProblem(
          reply,
          problem('INSUFFICIENT_SCOPE', request.id, `This operation needs an API key with the "${scope}" scope.`, undefined, {
            requiredScope: scope,
          }),
        );
      }
    });
  },
  { name: 'auth', dependencies: ['deps', 'rate-limit'] },
);
