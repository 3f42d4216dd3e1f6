// A pino logger with pino's default line format (no formatters, serializers, mixin, redaction or
// hooks) writing to a stream we chose, and marked as such. The mark lets the request-completed line,
// one per request, be written without pino's general serialiser (src/http/request-line.ts): the
// line's shape is known, so it is assembled directly in the same format. A logger made any other way
// carries no mark, and a child given options that change the line (a route's `logSerializers` for
// one of its keys, a child's redaction or message prefix) is not plain: their lines go through pino.
import pino, { type DestinationStream, type Logger } from 'pino';

const PLAIN = Symbol('travelog.plainJsonLogger');
const { serializersSym, stringifiersSym, formattersSym, chindingsSym } = pino.symbols;

type Internals = Record<symbol, unknown> & { levels: unknown; msgPrefix?: string };

export function plainJsonLogger(level: string, stream: DestinationStream): Logger {
  const logger = pino({ level }, stream);
  // Own property on the root; pino's children are Object.create(parent), so they inherit it.
  Object.defineProperty(logger, PLAIN, { value: { stream, root: logger } });
  return logger;
}

/**
 * For lines of the given keys (`msg` included): the stream of a logger made by plainJsonLogger, or
 * of a child that writes those keys as the root does, else undefined. A child's serializers are
 * compared by what they name, not by identity: Fastify wraps the logger it is given in a child
 * with serializers of its own (`req`, `res`, `err`), and every request's logger is a child of that.
 */
export function plainJsonTarget(keys: readonly string[]): (logger: object) => DestinationStream | undefined {
  // Per serializers object: does it name none of the keys? Fastify's wrapper makes one per app.
  const clear = new WeakMap<object, boolean>();
  const namesNone = (serializers: object): boolean => {
    let answer = clear.get(serializers);
    if (answer === undefined) {
      answer = keys.every((key) => !(key in serializers));
      clear.set(serializers, answer);
    }
    return answer;
  };
  // Compared with the root field by field, without building anything: this runs on every request.
  return (logger) => {
    const plain = (logger as { [PLAIN]?: { stream: DestinationStream; root: Logger } })[PLAIN];
    if (plain === undefined) return undefined;
    const child = logger as Internals;
    const root = plain.root as unknown as Internals;
    const formatters = child[formattersSym] as { level?: unknown; log?: unknown };
    const rootFormatters = root[formattersSym] as { level?: unknown; log?: unknown };
    const same =
      child.msgPrefix === undefined &&
      child[stringifiersSym] === root[stringifiersSym] &&
      formatters.level === rootFormatters.level &&
      formatters.log === rootFormatters.log &&
      child.levels === root.levels &&
      namesNone(child[serializersSym] as object);
    return same ? plain.stream : undefined;
  };
}

/**
 * The bindings pino serialised when the logger or its child was made (`,"pid":…,"hostname":…`, then
 * a child's, such as Fastify's `"reqId"`), as pino writes them after `time` on every line.
 */
export function serialisedBindings(logger: object): string {
  return (logger as Record<symbol, string>)[chindingsSym] ?? '';
}
