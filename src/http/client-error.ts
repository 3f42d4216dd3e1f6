// Answers to what Node's HTTP parser refuses before any request exists: header fields beyond the
// size limit (an over-long query string, a huge cookie), a request that did not arrive in time, and
// bytes that are not HTTP. Fastify's default writes its own JSON shape there; a partner's client
// should see problem+json with a `code` like on every other error. There is no request, so no hook,
// log line or reply: the answer is written to the socket, which is then closed (as Node does).
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import { problem, type ProblemBody } from './problem.js';

function problemOf(err: NodeJS.ErrnoException, traceId: string): ProblemBody {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return problem('HEADERS_TOO_LARGE', traceId, `The request line and header fields together exceed ${maxHeaderSize} bytes.`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem('REQUEST_TIMEOUT', traceId, 'The request did not arrive in time.');
    default:
      return problem('MALFORMED_REQUEST', traceId, 'The request is not well-formed HTTP/1.1.');
  }
}

export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer (Node's own rule for 'clientError').
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const traceId = randomUUID();
    const body = problemOf(err, traceId);
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${body.status} ${body.title}\r\n` +
        'Content-Type: application/problem+json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        `X-Request-Id: ${traceId}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  }
  socket.destroy(err);
}
