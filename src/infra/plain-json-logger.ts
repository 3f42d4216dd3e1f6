// A pino logger with pino's default line format (no formatters, serializers, mixin, redaction or
// hooks) writing to a stream we chose, and marked as such. The mark lets the request-completed line,
// one per request, be written without pino's general serialiser (src/http/request-line.ts): the
// line's shape is known, so it is assembled directly in the same format. A logger made any other way
// carries no mark, and a child given options that change the line (a route's `logSerializers` for
// one of its keys, a child's redaction or message prefix) is not plain: their lines go through pino.
import pino, { type DestinationStream, type Logger } from 'pino';

const PLAIN = Symbol('travelog.plainJsonLogger');
const { serializersSym, stringifiersSym, formattersSym, chindingsSym } = pino.symbols;

/** What a child shares with its root while nothing in its options changed the line's format. */
interface Format {
  stringifiers: unknown;
  formatLevel: unknown;
  formatLog: unknown;
  levels: unknown;
}

interface Plain extends Format {
  stream: DestinationStream;
}

function formatOf(logger: Logger): Format {
  const own = logger as unknown as Record<symbol, unknown>;
  const formatters = own[formattersSym] as { level?: unknown; log?: unknown };
  return { stringifiers: own[stringifiersSym], formatLevel: formatters.level, formatLog: formatters.log, levels: logger.levels };
}

export function plainJsonLogger(level: string, stream: DestinationStream): Logger {
  const logger = pino({ level }, stream);
  // Own property on the root; pino's children are Object.create(parent), so they inherit it.
  const plain: Plain = { stream, ...formatOf(logger) };
  Object.defineProperty(logger, PLAIN, { value: plain });
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
  return (logger) => {
    const plain = (logger as { [PLAIN]?: Plain })[PLAIN];
    if (plain === undefined || (logger as Logger).msgPrefix !== undefined) return undefined;
    const format = formatOf(logger as Logger);
    const same =
      format.stringifiers === plain.stringifiers &&
      format.formatLevel === plain.formatLevel &&
      format.formatLog === plain.formatLog &&
      format.levels === plain.levels &&
      namesNone((logger as unknown as Record<symbol, object>)[serializersSym]!);
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
