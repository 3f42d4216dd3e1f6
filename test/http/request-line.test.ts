// The request-completed line assembled without pino's serialiser (src/http/request-line.ts): a
// request's logger in a real Fastify app takes that path; on generated values the line parses to
// what pino writes for the same fields, keys in the same order; and a logger not made plain, or a
// child whose options change the line, still gets pino's own line.
import t from 'tap';
import fc from 'fast-check';
import pino from 'pino';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { plainJsonLogger } from '../../src/infra/plain-json-logger.js';
import { logRequestCompleted, REQUEST_COMPLETED, requestLineStream, type RequestLine } from '../../src/http/request-line.js';

function collector(): { write(line: string): void; lines: string[] } {
  const lines: string[] = [];
  return { lines, write: (line) => void lines.push(line) };
}

/** The parsed line without its time, and the time apart (the two loggers read the clock apart). */
function parsed(line: string): { keys: string[]; fields: Record<string, unknown>; time: unknown } {
  const whole = JSON.parse(line) as Record<string, unknown>;
  const { time, ...fields } = whole;
  return { keys: Object.keys(whole), fields, time };
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

t.test("a request's logger in a Fastify app given a plain logger writes the line directly", async (t) => {
  const out = collector();
  // Fastify wraps the logger in a child with its own serializers (req, res, err), and makes every
  // request's logger a child of that one.
  const app = Fastify({ loggerInstance: plainJsonLogger('info', out) as FastifyBaseLogger });
  t.teardown(() => app.close());
  app.get('/direct', async (request) => ({ app: requestLineStream(app.log) === out, request: requestLineStream(request.log) === out }));
  const res = await app.inject({ method: 'GET', url: '/direct' });
  t.same(res.json(), { app: true, request: true });
});

t.test('the assembled line is the line pino writes for the same fields', (t) => {
  const ours = collector();
  const pinos = collector();
  const plain = plainJsonLogger('info', ours);
  const reference = pino({ level: 'info' }, pinos);
  fc.assert(
    fc.property(requestLine, text, (line, reqId) => {
      const before = Date.now();
      const child = plain.child({ reqId });
      if (requestLineStream(child) !== ours) return false; // else both lines would be pino's
      logRequestCompleted(child as FastifyBaseLogger, line);
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
  for (const child of Object.values(children)) t.equal(requestLineStream(child), undefined);
  const kept = plainJsonLogger('info', collector());
  t.ok(requestLineStream(kept.child({ reqId: 'r' }, { level: 'info' })), 'a child given only a level is still plain');
  t.ok(requestLineStream(kept.child({}, { serializers: { req: String } })), "a child's serializer for another key leaves it plain");
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
