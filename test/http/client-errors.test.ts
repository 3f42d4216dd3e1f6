// What Node's HTTP parser refuses before a request exists leaves as problem+json with a code, over
// a real socket (a fetch client would refuse to send most of these).
import t from 'tap';
import { connect } from 'node:net';
import { startTestApp } from '../helpers/app.js';

/** Writes raw bytes and reads until the server closes: the whole answer. */
function raw(origin: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (out += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
  });
}

function parse(answer: string): { statusLine: string; headers: Record<string, string>; body: any } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { statusLine, headers, body: JSON.parse(body) };
}

t.test('parser errors are problem+json', async (t) => {
  const app = await startTestApp(t);

  t.test('header fields beyond the limit: 431 HEADERS_TOO_LARGE', async (t) => {
    const long = 'a'.repeat(20_000);
    const answer = parse(await raw(app.baseUrl, `GET /api/v1/travel-entries?q=${long} HTTP/1.1\r\nHost: x\r\n\r\n`));
    t.equal(answer.statusLine, 'HTTP/1.1 431 Request Header Fields Too Large');
    t.equal(answer.headers['content-type'], 'application/problem+json; charset=utf-8');
    t.equal(answer.headers.connection, 'close');
    t.match(answer.body, { status: 431, code: 'HEADERS_TOO_LARGE', title: 'Request Header Fields Too Large' });
    t.equal(answer.body.traceId, answer.headers['x-request-id'], 'the trace id is the request id header');
  });

  t.test('bytes that are not HTTP: 400 MALFORMED_REQUEST', async (t) => {
    const answer = parse(await raw(app.baseUrl, 'HELLO / SMTP\r\n\r\n'));
    t.equal(answer.statusLine, 'HTTP/1.1 400 Bad Request');
    t.equal(answer.headers['content-type'], 'application/problem+json; charset=utf-8');
    t.match(answer.body, { status: 400, code: 'MALFORMED_REQUEST' });
  });

  t.test('the server still answers afterwards', async (t) => {
    const res = await app.request('GET', '/healthz', { key: null });
    t.equal(res.status, 200);
  });
});

t.test('a body that stops arriving: 408 REQUEST_TIMEOUT within REQUEST_TIMEOUT_MS, and the connection closes', async (t) => {
  // An outside try (session 25): with Fastify's default of no limit, a request whose body stopped
  // half-way held its connection for minutes, with no answer.
  const app = await startTestApp(t, { env: { REQUEST_TIMEOUT_MS: '1000' } });
  const { hostname, port } = new URL(app.baseUrl);
  const started = Date.now();
  const answer = await new Promise<string>((resolve, reject) => {
    // The socket stays open for writing: the client is only slow, it has not finished.
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        'POST /api/v1/employees HTTP/1.1\r\nHost: x\r\n' +
          `Authorization: Bearer ${app.tenant.key}\r\nContent-Type: application/json\r\nContent-Length: 41\r\n\r\n{"fir`,
      ),
    );
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (out += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
    setTimeout(() => socket.destroy(new Error('no answer within 10 s')), 10_000).unref();
  });
  const elapsed = Date.now() - started;
  const parsed = parse(answer);
  t.equal(parsed.statusLine, 'HTTP/1.1 408 Request Timeout');
  t.match(parsed.body, { status: 408, code: 'REQUEST_TIMEOUT' });
  t.equal(parsed.headers.connection, 'close');
  t.ok(elapsed >= 900 && elapsed < 5_000, `answered after the limit, not long after it (${elapsed} ms)`);
  const after = await app.request('GET', '/api/v1/employees');
  t.equal(after.status, 200, 'the server goes on serving');
});
