// The state-as-of part of a GET-one route: `?asOf=<instant>` or `?revision=<n>` answer the resource
// as it was, folded from its stream (application/audit/state-as-of.ts). They need the `audit` scope
// besides the route's `read` (the history of a resource is the auditor's, the current state the
// reader's). The ETag and Resource-Revision headers name the revision answered; a revision-pinned
// answer never changes, so it may be cached for a year (privately: it is a tenant's data, fetched with
// a key, and a shared cache keys on the URL alone).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, validationError } from '../../../domain/errors.js';
import type { PointInStream } from '../../../application/audit/state-as-of.js';
import { etagOf } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';

export const RESOURCE_REVISION_HEADER = 'Resource-Revision';
/**
 * When the store recorded the revision answered: what `asOf` compares. A resource's own createdAt and
 * editedAt are its command's time, a few milliseconds earlier, so `asOf` set to one of them can
 * answer the revision before (or 404): the ERP try, session 25, found no way to see why.
 */
export const RESOURCE_RECORDED_AT_HEADER = 'Resource-Recorded-At';
export const IMMUTABLE_CACHE_CONTROL = 'private, max-age=31536000, immutable';

/** The point the query asks for, or undefined for the current state; 400 for both, 403 without the audit scope. */
export function pointInStreamOf(
  request: FastifyRequest,
  query: { asOf?: string | undefined; revision?: number | undefined },
): PointInStream | undefined {
  const { asOf, revision } = query;
  if (asOf === undefined && revision === undefined) return undefined;
  if (asOf !== undefined && revision !== undefined) {
    const message = 'Send asOf or revision, not both.';
    throw validationError({ asOf: [message], revision: [message] });
  }
  if (!principalOf(request).scopes.includes('audit')) {
    throw new DomainError(
      'INSUFFICIENT_SCOPE',
      'Reading a resource as of a revision or an instant needs an API key with the "audit" scope.',
      undefined,
      {
        requiredScope: 'audit',
      },
    );
  }
  return revision !== undefined ? { revision } : { asOf: new Date(asOf!) };
}

/** Headers of an as-of answer: which revision it is, when it was recorded, and how long it may be cached. */
export function asOfHeaders(reply: FastifyReply, point: PointInStream, at: { revision: number; recordedAt: Date }): void {
  reply.header('ETag', etagOf(at.revision)).header(RESOURCE_REVISION_HEADER, String(at.revision));
  reply.header(RESOURCE_RECORDED_AT_HEADER, at.recordedAt.toISOString());
  reply.header('Cache-Control', 'revision' in point ? IMMUTABLE_CACHE_CONTROL : 'private, no-cache');
}
