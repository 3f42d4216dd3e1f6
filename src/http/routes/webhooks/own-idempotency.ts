// Idempotency-Key for the two operations whose response carries a signing secret (create and
// rotate-secret). A replay must know whether the secret it returned is still current (a create
// replayed after a rotation must not hand out the old secret), which only the subscription row
// knows: these routes take the key away from the shared plugin before its preHandler runs and
// implement the same contract on the row itself, replaying the secret from its sealed copy. The key
// is still held in the tenant's shared table (without a response), so it is one namespace with
// every other operation's keys.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.js';
import type { Db } from '../../../infra/database.js';
import { claimIdempotencyKey } from '../../plugins/idempotency.js';
import { sameRequest } from '../../request-fingerprint.js';

export const REPLAY_WINDOW_HOURS = 24;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const keys = new WeakMap<FastifyRequest, string>();

/** onRequest hook: moves Idempotency-Key out of the shared plugin's reach. */
export async function takeIdempotencyKey(request: FastifyRequest): Promise<void> {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return;
  delete request.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0]! : raw;
  if (!KEY_PATTERN.test(key)) {
    throw new DomainError('VALIDATION_FAILED', 'The Idempotency-Key header is invalid.', {
      'Idempotency-Key': ['1 to 255 printable ASCII characters.'],
    });
  }
  keys.set(request, key);
}

export const idempotencyKeyOf = (request: FastifyRequest): string | undefined => keys.get(request);

export function markReplayed(reply: FastifyReply): void {
  reply.header('Idempotent-Replayed', 'true');
}

export const keyReused = (): DomainError =>
  new DomainError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request; use a new key for a new request.', {
    'Idempotency-Key': ['Already used for another request.'],
  });

export const replayUnavailable = (): DomainError =>
  new DomainError(
    'IDEMPOTENCY_REPLAY_UNAVAILABLE',
    'The subscription made under this Idempotency-Key has changed since (its secret was rotated, or it was deleted), so the response cannot be replayed.',
  );

/** Requests whose key this route claimed in the shared table (released again after a 5xx). */
const held = new WeakMap<FastifyRequest, { db: Db; tenantId: string; key: string }>();

/**
 * Holds `key` in the tenant's shared table too (no response there: these routes replay from the
 * subscription row), so a key used here is refused on any other operation and one used on another
 * operation is refused here (422), as between any two operations.
 */
export async function holdSharedKey(db: Db, tenantId: string, key: string, request: FastifyRequest, fingerprint: string): Promise<void> {
  const prior = await claimIdempotencyKey(db, tenantId, key, request, fingerprint);
  if (prior === undefined) held.set(request, { db, tenantId, key });
  else if (!sameRequest(request, fingerprint, prior.request_hash)) throw keyReused();
}

/**
 * onResponse hook: a key this request claimed is released after a server error, so a retry runs
 * again; after any other answer it stays. The shared plugin keeps a failed claim instead and judges
 * the retry by the log (a 5xx can follow a commit); here a retry after a committed create finds
 * the subscription row by its key and replays it, so releasing the key cannot make a second one.
 */
export async function releaseHeldKeyOnServerError(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const claim = held.get(request);
  if (claim === undefined || reply.statusCode < 500) return;
  await claim.db.deleteFrom('idempotency_keys').where('tenant_id', '=', claim.tenantId).where('key', '=', claim.key).execute();
}
