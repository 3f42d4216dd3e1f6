// buildApp wires the HTTP layer: it registers plugins, routes and the one error handler, and
// never listens (process entry points and tests decide that).
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifySchema, type RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { depsPlugin, type AppDeps } from './deps.js';
import { authPlugin } from './plugins/auth.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { idempotencyPlugin } from './plugins/idempotency.js';
import { openApiPlugin } from './plugins/openapi.js';
import { REQUEST_ID_PATTERN, requestContextPlugin } from './plugins/request-context.js';
import { problem, sendProblem, toProblem } from './problem.js';
import { DomainError } from '../domain/errors.js';
import { bodyNotTakenProblem, notUtf8Problem, prototypeKeyProblem, repeatedNameProblem, tooDeepProblem } from './json-body.js';
import { scanJsonText } from '../domain/shared/json-text-scan.js';
import { answerClientError } from './client-error.js';
import { addSharedSchema, validatorCompiler } from './validation.js';
import { cachedSerializerFactory } from './serializer-cache.js';
import { ProblemSchema } from './schemas/common.js';
import { healthRoutes } from './routes/health.js';
import { isDatabaseUnavailable } from '../infra/availability.js';
import { apiRoutes, sharedSchemas } from './routes/index.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
const IDENTITY_CODING = /^\s*identity\s*$/i;
const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false };

/** The partner API instance, typed by its TypeBox provider (its routes infer request types from their schemas). */
export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export async function buildApp(deps: AppDeps, logger: Logger): Promise<App> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Our own request-completed line (request-context.ts) carries the API key; Fastify's is off.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (req) => {
      const inbound = req.headers['x-request-id'];
      return typeof inbound === 'string' && REQUEST_ID_PATTERN.test(inbound) ? inbound : randomUUID();
    },
    // Our own 503 while closing (below): Fastify's is not problem+json and says no Retry-After.
    return503OnClosing: false,
    // Behind reverse proxies (TRUST_PROXY), request.ip is the client's address from X-Forwarded-For,
    // so the failed-authentication limit counts each client, not the proxy's one address for all.
    trustProxy: deps.config.trustProxy.length > 0 ? [...deps.config.trustProxy] : false,
    // Response serializers compiled once per schema for the process (serializer-cache.ts).
    schemaController: { compilersFactory: { buildSerializer: cachedSerializerFactory } },
    forceCloseConnections: 'idle',
    // A request whose body stops arriving held its connection for ever (Fastify's default is no
    // limit; an outside try, session 25): the whole request must arrive within REQUEST_TIMEOUT_MS,
    // else Node answers through clientErrorHandler (408 problem+json) and closes the connection.
    // Node checks the deadlines every connectionsCheckingInterval (30 s by default), so a short
    // limit is checked more often; header fields keep Node's 60 s where the limit is longer.
    requestTimeout: deps.config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, deps.config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(deps.config.requestTimeoutMs / 4))),
    },
    // Long enough that a malformed id reaches the params schema and is named in `errors`; a segment
    // beyond it is still a problem+json 400 (frameworkErrors), naming `path`.
    routerOptions: { maxParamLength: 2048 },
    // Errors the router raises before any route or hook runs (bad percent-encoding, an over-long
    // segment) leave as problem+json like every other error.
    clientErrorHandler: answerClientError,
    frameworkErrors: (err, request, reply) => {
      reply.header('X-Request-Id', request.id);
      return sendProblem(reply, toProblem(err, request));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // While closing, in-flight responses ask the client to drop its keep-alive connection, so the
  // server does not wait out the keep-alive timeout before it can exit.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('Connection', 'close');
    return payload;
  });
  // A request that arrives on an open keep-alive connection once closing has begun is turned away
  // before any work, as a problem the client retries (against another process, or this one again).
  // A callback hook, not an async one: it runs on every request and almost always does nothing.
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    reply.header('X-Request-Id', request.id);
    sendProblem(reply, problem('SERVICE_UNAVAILABLE', request.id, 'The service is shutting down; retry shortly.'));
  });

  // A body in a content coding we do not decode (gzip, br, ...) was read as if it were plain: a
  // compressed one failed as "not UTF-8", a plain one labelled gzip passed (fuzzing try, session 25).
  // RFC 9110 §15.5.16: 415, naming the header. A callback hook: it runs on every request.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const coding = request.headers['content-encoding'];
    if (coding === undefined || IDENTITY_CODING.test(coding)) return done(null, payload);
    const hasBody = request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0';
    if (!hasBody) return done(null, payload);
    done(
      new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the body without a content coding (no Content-Encoding, or identity).', {
        'Content-Encoding': ['Only identity is accepted.'],
      }),
    );
  });

  app.setValidatorCompiler(validatorCompiler);
  // The API takes JSON (and multipart where a route registers it): text/plain is a 415, not a string body.
  app.removeContentTypeParser('text/plain');
  // A body must be UTF-8, prototype keys are named by their path, and an operation that declares
  // no body takes none beyond `{}` or `null` (json-body.ts).
  // `content-type: application/json` with an empty body is how many clients send a bodiless POST
  // (submit, retry, ...): on an operation that takes no body it is no body. Where a body is
  // expected, an empty one is still malformed JSON (400 MALFORMED_JSON), as before, unless the body
  // is optional (`'x-optional-body': true`, cancel).
  const defaultJsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // An unmatched route answers 404 whatever it is sent: its body is nobody's to read, and parsing
    // it would let anyone, without a key, spend the thread on it (see tooDeepProblem).
    if (request.is404) return done(null, undefined);
    const bytes = body as Buffer;
    const schema = request.routeOptions.schema as (FastifySchema & { 'x-optional-body'?: boolean }) | undefined;
    const optionalBody = schema?.body === undefined || schema['x-optional-body'] === true;
    if (bytes.length === 0 && optionalBody) return done(null, undefined);
    const notUtf8 = notUtf8Problem(bytes);
    if (notUtf8) return done(notUtf8, undefined);
    const text = bytes.toString('utf8');
    // Read from the text first: how deep it nests (parsing absurd nesting holds the thread) and
    // whether an object names a field twice (json-text-scan.ts).
    const scan = scanJsonText(text);
    const tooDeep = tooDeepProblem(scan);
    if (tooDeep) return done(tooDeep, undefined);
    const takesNoBody = schema?.body === undefined && schema?.consumes === undefined && !request.routeOptions.config.anyBody;
    return defaultJsonParser(request, text, (err, value) => {
      if (err) return done(prototypeKeyProblem(text) ?? err, undefined);
      const refused = repeatedNameProblem(scan) ?? (takesNoBody ? bodyNotTakenProblem(value) : undefined);
      return refused ? done(refused, undefined) : done(null, value);
    });
  });
  // Unknown query parameters are a 400 on every partner route, also on one that declares none.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && route.schema && route.schema.querystring === undefined) {
      route.schema = { ...route.schema, querystring: NO_QUERY };
    }
  });
  app.setErrorHandler((err, request, reply) => {
    // The database away (restart, lost connection, frozen past its deadline), or a read model behind
    // the log (read-model-gate.ts): a 503 the client may retry (sendProblem says when).
    const unavailable = isDatabaseUnavailable(err);
    const body = unavailable
      ? problem('SERVICE_UNAVAILABLE', request.id, 'The service is temporarily unavailable; retry shortly.')
      : toProblem(err, request);
    if (body.status === 503) request.log.warn({ err, requestId: request.id }, unavailable ? 'database unavailable' : body.detail);
    else if (body.status >= 500) request.log.error({ err, requestId: request.id }, 'request failed');
    return sendProblem(reply, body);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, problem('ROUTE_NOT_FOUND', request.id, `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );

  // Shared schemas live on the root so the OpenAPI document lists them as components.
  for (const schema of [ProblemSchema, ...sharedSchemas]) addSharedSchema(app, schema);
  await app.register(depsPlugin(deps));
  await app.register(openApiPlugin);
  await app.register(requestContextPlugin);
  // Before auth: its onRequest hook turns away an address over its failed-authentication budget.
  await app.register(rateLimitPlugin);
  await app.register(authPlugin);
  await app.register(idempotencyPlugin);
  app.addHook('onResponse', async (request, reply) => {
    deps.metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  await app.register(healthRoutes);
  await app.register(apiRoutes, { prefix: '/api/v1' });
  return app;
}
