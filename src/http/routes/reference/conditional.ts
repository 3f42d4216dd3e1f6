// Conditional GETs of reference data: a strong ETag from what the answer depends on (the data
// version and the query, plus the tenant's settings where they shape it), `Cache-Control`, and
// 304 Not Modified when If-None-Match names the ETag (src/http/conditional-read.ts).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answeredNotModified } from '../../conditional-read.js';

export { NotModified } from '../../conditional-read.js';

export function etagFor(parts: readonly unknown[]): string {
  return `"${createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27)}"`;
}

/**
 * Sets ETag and Cache-Control; true when the client's copy is current, in which case the reply is a
 * 304 already sent and the route returns the reply.
 */
export function notModified(request: FastifyRequest, reply: FastifyReply, etag: string, cacheControl: string): boolean {
  reply.header('Cache-Control', cacheControl);
  return answeredNotModified(request, reply, etag);
}
