// A pino logger with pino's default line format (no formatters, serializers, mixin, redaction or
// hooks) writing to a stream we chose, and marked as such. The mark lets the request-completed line,
// one per request, be written without pino's general serialiser (src/http/request-line.ts): the
// line's shape is known, so it is assembled directly in the same format. A logger made any other way
// carries no mark and its lines all go through pino.
import pino, { type DestinationStream, type Logger } from 'pino';

const PLAIN = Symbol('travelog.plainJsonLogger');

export function plainJsonLogger(level: string, stream: DestinationStream): Logger {
  const logger = pino({ level }, stream);
  // Own property on the root; pino's children are Object.create(parent), so they inherit it.
  Object.defineProperty(logger, PLAIN, { value: stream });
  return logger;
}

/** The stream of a logger made by plainJsonLogger (or a child of one), else undefined. */
export function plainJsonStream(logger: object): DestinationStream | undefined {
  return (logger as { [PLAIN]?: DestinationStream })[PLAIN];
}

/**
 * The bindings pino serialised when the logger or its child was made (`,"pid":…,"hostname":…`, then
 * a child's, such as Fastify's `"reqId"`), as pino writes them after `time` on every line.
 */
export function serialisedBindings(logger: object): string {
  return (logger as Record<symbol, string>)[pino.symbols.chindingsSym] ?? '';
}
