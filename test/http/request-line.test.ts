// The request-completed line assembled without pino's serialiser (src/http/request-line.ts): on
// generated values it parses to what pino writes for the same fields, keys in the same order, and
// a logger not made plain still gets pino's own line.
import t from 'tap';
import fc from 'fast-check';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { plainJsonLogger } from '../../src/infra/plain-json-logger.js';
import { logRequestCompleted, REQUEST_COMPLETED, type RequestLine } from '../../src/http/request-line.js';

function collector(): { write(line: string): void; lines: string[] } {
  const lines: string[] = [];
  return { lines, write: (line) => void lines.push(line) };
}

/** The parsed line without its time, and the time apart (the two loggers read the clock apart). */
function parsed(line: string): { keys: string[]; fields: Record<string, unknown>; time: unknown } {
  const { time, ...fields } = JSON.parse(line) as Record<string, unknown>;
  return { keys: Object.keys(JSON.parse(line) as object), fields, time };
}

const text = fc.oneof(fc.string({ unit: 'grapheme-composite' }), fc.string({ unit: 'binary' }), fc.uuid());
const requestLine: fc.Arbitrary<RequestLine> = fc.record(
  {
    requestId: text,
    apiKeyId: fc.option(fc.uuid(), { nil: undefined }),
    tenantId: fc.option(fc.uuid(), { nil: undefined }),
    method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'),
    route: fc.option(text, { nil: undefined }),
    url: text,
    query: fc.array(text, { maxLength: 3 }),
    statusCode: fc.integer({ min: 100, max: 599 }),
    durationMs: fc.oneof(fc.double(), fc.constant(Number.NaN), fc.constant(-0)),
  },
  { requiredKeys: ['requestId', 'apiKeyId', 'tenantId', 'method', 'route', 'url', 'statusCode', 'durationMs'] },
);

t.test('the assembled line is the line pino writes for the same fields', (t) => {
  const ours = collector();
  const pinos = collector();
  const plain = plainJsonLogger('info', ours);
  const reference = pino({ level: 'info' }, pinos);
  fc.assert(
    fc.property(requestLine, text, (line, reqId) => {
      const before = Date.now();
      logRequestCompleted(plain.child({ reqId }) as FastifyBaseLogger, line);
      reference.child({ reqId }).info(line, REQUEST_COMPLETED);
      const a = parsed(ours.lines.at(-1)!);
      const b = parsed(pinos.lines.at(-1)!);
      return (
        ours.lines.at(-1)!.endsWith('}\n') &&
        JSON.stringify(a.keys) === JSON.stringify(b.keys) &&
        fc.stringify(a.fields) === fc.stringify(b.fields) &&
        typeof a.time === 'number' &&
        a.time >= before &&
        a.time <= Date.now()
      );
    }),
    { numRuns: 2000 },
  );
  t.equal(ours.lines.length, pinos.lines.length);
  t.end();
});

t.test('a line below the level is not written', (t) => {
  const out = collector();
  logRequestCompleted(plainJsonLogger('warn', out).child({ reqId: 'r' }) as FastifyBaseLogger, sample());
  t.same(out.lines, []);
  t.end();
});

t.test('a logger not made plain writes through pino, with its own options', (t) => {
  const out = collector();
  const custom = pino({ level: 'info', messageKey: 'message', base: undefined }, out);
  logRequestCompleted(custom as FastifyBaseLogger, sample());
  t.match(JSON.parse(out.lines[0]!), { message: REQUEST_COMPLETED, requestId: 'req-1', statusCode: 200 });
  t.notOk('pid' in (JSON.parse(out.lines[0]!) as object), "pino's options, not the plain format");
  t.end();
});

t.test("a child whose options change the format writes through pino, with the child's options", (t) => {
  const out = collector();
  const plain = plainJsonLogger('info', out);
  const children = {
    serializers: plain.child({ reqId: 'r' }, { serializers: { url: () => 'hidden' } }),
    redaction: plain.child({ reqId: 'r' }, { redact: ['tenantId'] }),
    prefix: plain.child({ reqId: 'r' }, { msgPrefix: '[api] ' }),
  };
  for (const child of Object.values(children)) logRequestCompleted(child as FastifyBaseLogger, { ...sample(), tenantId: 'tenant-1' });
  const [serialized, redacted, prefixed] = out.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  t.equal(serialized?.url, 'hidden', "a route's logSerializers");
  t.equal(redacted?.tenantId, '[Redacted]', "a child's redaction");
  t.equal(prefixed?.msg, `[api] ${REQUEST_COMPLETED}`, "a child's message prefix");
  const levelOnly = collector();
  logRequestCompleted(plainJsonLogger('info', levelOnly).child({ reqId: 'r' }, { level: 'info' }) as FastifyBaseLogger, sample());
  t.match(JSON.parse(levelOnly.lines[0]!), { reqId: 'r', msg: REQUEST_COMPLETED }, 'a child given only a level is still plain');
  t.end();
});

function sample(): RequestLine {
  return {
    requestId: 'req-1',
    apiKeyId: undefined,
    tenantId: undefined,
    method: 'GET',
    route: '/healthz',
    url: '/healthz',
    statusCode: 200,
    durationMs: 0.25,
  };
}
