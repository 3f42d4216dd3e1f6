// The fingerprint of a request sent with an Idempotency-Key: its method, URL and body. A retry with
// the same key must be the same request (else 422 IDEMPOTENCY_KEY_REUSED). The body counts as a JSON
// value, its object keys in RFC 8785 order, so a client library that serialises the same body with
// its keys in another order is not taken for a different request (it was, until session 13).
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { canonicalJson } from '../application/audit/canonical-json.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function bodyText(body: unknown): string {
  try {
    return canonicalJson(body ?? null);
  } catch {
    // A value with no canonical form (a lone surrogate, in a body a route validates later) keeps
    // its plain text: still a fingerprint, and the route refuses the body anyway.
    return JSON.stringify(body ?? null);
  }
}

/**
 * The body as the operation reads it: none where the operation takes none. There `{}`, `null` and
 * no body are the same request (many clients send `{}` with a bodiless POST such as submit); a body
 * with fields is refused before this runs (json-body.ts, since session 21).
 */
const bodyRead = (request: FastifyRequest): unknown => (request.routeOptions.schema?.body === undefined ? null : request.body);

/** What is stored with a key. */
export function requestFingerprint(request: FastifyRequest): string {
  return sha256(`${request.method} ${request.url}\n${bodyText(bodyRead(request))}`);
}

/**
 * Whether `stored`, a key's fingerprint, is this request's, whose own `fingerprint` the caller has
 * computed. Keys stored before session 13 hold the body's text as it came (JSON.stringify of the
 * parsed body); within their replay window they still match a retry of the very same body.
 */
export function sameRequest(request: FastifyRequest, fingerprint: string, stored: string | null | undefined): boolean {
  if (stored === fingerprint) return true;
  return stored === sha256(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`);
}
