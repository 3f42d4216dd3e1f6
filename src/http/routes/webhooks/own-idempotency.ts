// Idempotency-Key for the two operations whose response carries a signing secret (create and
// rotate-secret). The shared idempotency plugin stores response bodies as plain text, which would
// put the secret at rest unencrypted for 24 hours; these routes take the key away from it before
// its preHandler runs and implement the same contract on the subscription row itself, replaying
// the secret from its sealed copy.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.js';

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
