// The OpenAPI 3.1 document is generated from the route schemas, never written by hand. Shared
// schemas keep their $id as their component name, so enums appear once as allow-lists.
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from '../../domain/error-codes.js';
import { ERROR_CODES_OF_OPERATION } from '../schemas/common.js';
import { completeDocument, SCOPE_EXTENSION } from '../openapi/document.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const BODY_PARSER_CODES: readonly ErrorCode[] = ['MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
const IDEMPOTENCY_CODES: readonly ErrorCode[] = ['IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REPLAY_UNAVAILABLE'];
/** What any authenticated operation can answer whatever it does: its key or address over a rate limit, the database away. */
const AUTHENTICATED_CODES: readonly ErrorCode[] = ['RATE_LIMITED', 'SERVICE_UNAVAILABLE'];

export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    // Each operation lists the error codes it can answer (errorResponses in its schema), as
    // `x-error-codes`: the table in src/domain/error-codes.ts gives their statuses and titles.
    app.addHook('onRoute', (route) => {
      const response = route.schema?.response as ({ [ERROR_CODES_OF_OPERATION]?: ErrorCode[] } & Record<number, unknown>) | undefined;
      let codes = response?.[ERROR_CODES_OF_OPERATION];
      // What the body parser answers before any route runs, on every operation a body can be sent
      // to (app.ts): a body that is not JSON or over the size limit, or of another media type.
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (codes && response && methods.some((m) => BODY_METHODS.has(m))) {
        codes = [...new Set([...codes, ...BODY_PARSER_CODES])];
        for (const code of BODY_PARSER_CODES) response[ERROR_CODES[code].status] ??= Type.Ref('Problem');
        response[ERROR_CODES_OF_OPERATION] = codes;
      }
      // Every authenticated POST takes an Idempotency-Key (plugins/idempotency.ts), so each can answer
      // its refusals: the key in use by a request still running, reused for another request, or an
      // abandoned request under it carried out with its answer lost. Added here rather than by each
      // route, which left them off the calculator and the webhook retries (fuzzing try, session 25).
      const scoped = (route.config as { scope?: string } | undefined)?.scope !== undefined;
      // Declared on each operation, not only in the document's description, so a generated client
      // has a typed 429 and 503 to retry on (contract try, session 27).
      if (codes && response && scoped) {
        codes = [...new Set([...codes, ...AUTHENTICATED_CODES])];
        for (const code of AUTHENTICATED_CODES) response[ERROR_CODES[code].status] ??= Type.Ref('Problem');
        response[ERROR_CODES_OF_OPERATION] = codes;
      }
      if (codes && response && scoped && methods.includes('POST')) {
        codes = [...new Set([...codes, ...IDEMPOTENCY_CODES])];
        for (const code of IDEMPOTENCY_CODES) response[ERROR_CODES[code].status] ??= Type.Ref('Problem');
        response[ERROR_CODES_OF_OPERATION] = codes;
      }
      if (codes && route.schema) (route.schema as Record<string, unknown>)['x-error-codes'] = codes;
      // The scope the route asks for (plugins/auth.ts), so the document can say it and mark the
      // routes without one as public.
      const scope = (route.config as { scope?: string } | undefined)?.scope;
      if (scope && route.schema) (route.schema as Record<string, unknown>)[SCOPE_EXTENSION] = scope;
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Travelog partner API',
          version: '1.0.0',
          description:
            'Pull API for travel entries, employees, payouts and reference data, and the webhook subscriptions that push ' +
            '`entry.*` and `employee.*` events. Errors are application/problem+json with a stable `code`. ' +
            "Besides each operation's `x-error-codes`, any request can be answered before an operation is chosen: " +
            '400 `MALFORMED_REQUEST` (a path the router cannot read, such as bad percent-encoding or an over-long segment), ' +
            '404 `ROUTE_NOT_FOUND`, 408 `REQUEST_TIMEOUT`, 431 `HEADERS_TOO_LARGE` and 503 `SERVICE_UNAVAILABLE` ' +
            '(with Retry-After, while the server stops). Every authenticated operation also lists 429 `RATE_LIMITED` ' +
            '(with Retry-After) and 503 `SERVICE_UNAVAILABLE`. ' +
            'A request body is UTF-8 JSON of at most 1 MiB, nested at most 32 levels, naming each field once per object; ' +
            'other text is a 400 keyed by the field (413 over the size).',
        },
        components: {
          securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer tvl_...`' } },
        },
        security: [{ apiKey: [] }],
      },
      // A route whose body may be omitted says so with `'x-optional-body': true` in its schema;
      // the generator would otherwise mark every declared body as required.
      transformObject: (doc) => {
        const openapiObject = 'openapiObject' in doc ? doc.openapiObject : doc.swaggerObject;
        for (const ops of Object.values(
          (openapiObject as { paths?: Record<string, Record<string, Record<string, unknown>>> }).paths ?? {},
        )) {
          for (const op of Object.values(ops)) {
            if (op['x-optional-body'] && op.requestBody) (op.requestBody as { required: boolean }).required = false;
            delete op['x-optional-body'];
          }
        }
        return completeDocument(openapiObject as Record<string, any>);
      },
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    });
    await app.register(swaggerUi, { routePrefix: '/api-reference', uiConfig: { docExpansion: 'list', deepLinking: true } });
    app.get('/api-reference/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
