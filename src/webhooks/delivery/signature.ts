// Signing of outgoing deliveries: `Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>]`.
// The scheme deliberately matches the common payment-provider one (Stripe) so partners can reuse a
// verifier written for it after renaming the header. That compatibility dictates the details:
//   - the HMAC key is the full secret string *including* the `whsec_` prefix, as UTF-8 bytes
//     (Standard Webhooks base64-decodes the part after the prefix instead; that would break it);
//   - the signed bytes are `${t}.` followed by the raw body bytes exactly as sent;
//   - lowercase hex, no spaces in the header, integer seconds.
// During a secret rotation every active secret signs, giving one `v1=` entry per secret; verifiers
// accept the request when any entry matches.
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNING_SECRET_PREFIX = 'whsec_';

/** `whsec_` + 32 random bytes as base64url (43 characters). Shown to the partner once. */
export function generateSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** Lowercase hex HMAC-SHA256 over `${timestampSec}.` + body, keyed with the secret's UTF-8 bytes. */
export function computeV1(body: Buffer, secret: string, timestampSec: number): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestampSec}.`, 'utf8').update(body).digest('hex');
}

/**
 * The `Service-Signature` header value. `secrets` in the order they should appear (newest first is
 * the convention); at least one. Compute it immediately before each attempt: the timestamp is fresh
 * on every attempt while the body bytes never change.
 */
export function signPayload(body: Buffer, secrets: readonly string[], timestampSec: number): string {
  if (secrets.length === 0) throw new TypeError('signPayload needs at least one secret');
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) {
    throw new TypeError('signPayload needs a non-negative integer timestamp in seconds');
  }
  for (const s of secrets) if (s.length === 0) throw new TypeError('signPayload got an empty secret');
  return [`t=${timestampSec}`, ...secrets.map((s) => `v1=${computeV1(body, s, timestampSec)}`)].join(',');
}
