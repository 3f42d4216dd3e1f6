// While the API closes (SIGTERM: requests in flight finish first), a request that still arrives on
// an open connection is answered 503 problem+json with Retry-After before any work. Fastify's own
// answer was `{"error":"Service Unavailable",…}` without Retry-After (an operator's chaos try,
// session 24). The request here is half sent when the close begins (so its connection is not idle
// and stays open) and completed after.
import t from 'tap';
import { connect } from 'node:net';
import { startTestApp } from '../helpers/app.js';

t.test('a request that arrives while the API is closing: 503 problem+json with Retry-After', async (t) => {
  const app = await startTestApp(t);
  const api = app.rt.app!;
  const { port } = new URL(app.baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
  const ended = new Promise((r) => socket.once('close', r));
  socket.write(`GET /api/v1/company HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${app.tenant.key}\r\n`);
  await new Promise((r) => setTimeout(r, 100));
  const closed = api.close();
  await new Promise((r) => setTimeout(r, 200));
  socket.write('\r\n');
  await ended;
  await closed;
  const [head, body] = answer.split('\r\n\r\n');
  t.match(head, /^HTTP\/1\.1 503 /);
  t.match(head, /\r\ncontent-type: application\/problem\+json/i);
  t.match(head, /\r\nretry-after: 5\r\n/i);
  t.match(head, /\r\nconnection: close\r\n/i);
  const requestId = /\r\nx-request-id: ([^\r]+)/i.exec(head!)?.[1];
  t.ok(requestId, 'with its request id');
  t.match(JSON.parse(body!), { status: 503, code: 'SERVICE_UNAVAILABLE', traceId: requestId });
});
