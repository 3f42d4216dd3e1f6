// Conditional GETs of reference data: a strong ETag from what the answer depends on (the data
// version and the query, plus the tenant's settings where they shape it), `Cache-Control`, and
// 304 Not Modified when If-None-Match names the ETag (RFC 9110 §13.1.2: weak comparison, `*`).
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The 304 answer, for response schemas. */
export const NotModified = Type.Null({ description: 'Not Modified: the ETag named in If-None-Match is current; no body.' });

export function etagFor(parts: readonly unknown[]): string {
  return `"${createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || opaque(t) === etag);
}

/**
 * Sets ETag and Cache-Control; true when the client's copy is current, in which case the reply is a
 * 304 already sent and the route returns the reply.
 */
export function notModified(request: FastifyRequest, reply: FastifyReply, etag: string, cacheControl: string): boolean {
  reply.header('ETag', etag).header('Cache-Control', cacheControl);
  if (!matches(request.headers['if-none-match'], etag)) return false;
  void reply.code(304).send();
  return true;
}
