// The one line logged per request ("request completed"), written straight to the destination when
// the logger is a plain JSON one (src/infra/plain-json-logger.ts). pino's general serialiser walks
// the object's keys, looks up serializers and stringifiers per key and escapes each string through a
// loop; for this line of fixed keys that was about half of the line's cost, and the line is issue
// 13's "logging under 2% of a GET's CPU" (docs/decisions.md, "The request line assembled in pino's
// format, without pino's serialiser"). The text is the line pino would write: the same keys in the
// same order, the same values (test/http/request-line.test.ts compares the two on generated values).
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import { plainJsonTarget, serialisedBindings } from '../infra/plain-json-logger.js';

export const REQUEST_COMPLETED = 'request completed';

/** The line's fields, in the order they are written. `undefined` ones are left out, as pino does. */
export interface RequestLine {
  requestId: string;
  apiKeyId: string | undefined;
  tenantId: string | undefined;
  method: string;
  route: string | undefined;
  url: string;
  query?: string[];
  statusCode: number;
  durationMs: number;
}

/** The line's keys, `msg` included: a child's serializer for one of them sends the line through pino. */
const KEYS = [
  'requestId',
  'apiKeyId',
  'tenantId',
  'method',
  'route',
  'url',
  'query',
  'statusCode',
  'durationMs',
  'msg',
] as const satisfies readonly (keyof RequestLine | 'msg')[];

/** The stream a request's line is written to directly, or undefined when pino must write it. */
export const requestLineStream = plainJsonTarget(KEYS);

/** Characters a JSON string may hold as they are: no control character, quote, backslash or surrogate. */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

function jsonString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

function optionalString(key: string, value: string | undefined): string {
  return value === undefined ? '' : `,"${key}":${jsonString(value)}`;
}

function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

export function logRequestCompleted(log: FastifyBaseLogger, line: RequestLine): void {
  // pino's own level check, first: below info nothing is written either way, and a silent server
  // pays no more than that. (A logger that is not pino's has no such method, and decides in info.)
  if ((log as Partial<Logger>).isLevelEnabled?.('info') === false) return;
  const stream = requestLineStream(log);
  if (stream === undefined) {
    log.info(line, REQUEST_COMPLETED);
    return;
  }
  stream.write(
    `{"level":30,"time":${Date.now()}${serialisedBindings(log)},"requestId":${jsonString(line.requestId)}` +
      optionalString('apiKeyId', line.apiKeyId) +
      optionalString('tenantId', line.tenantId) +
      `,"method":${jsonString(line.method)}` +
      optionalString('route', line.route) +
      `,"url":${jsonString(line.url)}` +
      (line.query === undefined ? '' : `,"query":${JSON.stringify(line.query)}`) +
      `,"statusCode":${jsonNumber(line.statusCode)},"durationMs":${jsonNumber(line.durationMs)},"msg":"${REQUEST_COMPLETED}"}\n`,
  );
}
