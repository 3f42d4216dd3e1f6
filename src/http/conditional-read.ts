// Conditional GETs (RFC 9110 §13.1.2): when the client's If-None-Match names the ETag of what the
// route would answer, the answer is 304 Not Modified with no body. If-None-Match compares weakly
// (`W/"3"` matches `"3"`), and `*` matches any current representation. A route may use this only
// where its ETag changes whenever its body does: reference data (an ETag over the data it answers
// from) and the resources whose body is their own stream's state at the revision the ETag names.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The 304 answer, for response schemas. */
export const NotModified = Type.Null({ description: 'Not Modified: the ETag named in If-None-Match is current; no body.' });

/** True when the If-None-Match header (absent: never) names `etag` or `*`. */
export function ifNoneMatchHolds(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || opaque(t) === etag);
}

/**
 * Sets the ETag; true when the client's copy is current, in which case a 304 is already sent and
 * the route returns the reply.
 */
export function answeredNotModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('ETag', etag);
  if (!ifNoneMatchHolds(request.headers['if-none-match'], etag)) return false;
  void reply.code(304).send();
  return true;
}
