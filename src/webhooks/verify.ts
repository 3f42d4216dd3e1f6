// Partner-side verification of `Service-Signature`. Self-contained (only node:crypto) so a partner
// can copy this file as is. Follows the spec's "Partner verification requirements":
//   reject a missing or malformed header, a timestamp older than the tolerance, a timestamp
//   meaningfully in the future, and a signature that matches none of the secrets; compare in
//   constant time.
// Two entry points: `verifyServiceSignature` returns a plain boolean, because a result object is
// truthy and `if (verify(...))` on it would accept everything; `explainServiceSignature` returns the
// reason for logs and debugging.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface VerifyOptions {
  /** Oldest accepted timestamp, in seconds before now. Default 300 (the spec's recommendation). */
  toleranceSec?: number;
  /** Newest accepted timestamp, in seconds after now (clock skew). Default 30. */
  futureSkewSec?: number;
  /** "Now" in Unix seconds; default the system clock. Pass the receive time when verifying from a queue. */
  nowSec?: number;
}

export type VerifyFailure =
  | 'missing_header' // header absent or empty
  | 'malformed_header' // no single integer `t`, no well-formed `v1`, or an unparsable entry
  | 'invalid_body' // the body is not raw bytes or a string (for example an already parsed object)
  | 'signature_mismatch' // no `v1` entry matches any of the secrets
  | 'timestamp_too_old' // correctly signed, but older than toleranceSec (possible replay)
  | 'timestamp_in_future'; // correctly signed, but more than futureSkewSec ahead

export type VerifyResult = { ok: true; timestampSec: number } | { ok: false; reason: VerifyFailure };

const V1_HEX = /^[0-9a-fA-F]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;

/** True only when the header is well-formed, one `v1` matches one secret, and the timestamp is in the window. */
export function verifyServiceSignature(
  rawBody: Buffer | Uint8Array | string,
  header: string | readonly string[] | undefined,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): boolean {
  return explainServiceSignature(rawBody, header, secrets, options).ok;
}

/** Same checks as verifyServiceSignature, with the reason for a rejection. */
export function explainServiceSignature(
  rawBody: Buffer | Uint8Array | string,
  header: string | readonly string[] | undefined,
  secrets: string | readonly string[],
  { toleranceSec = 300, futureSkewSec = 30, nowSec = Math.floor(Date.now() / 1000) }: VerifyOptions = {},
): VerifyResult {
  // A missing secret is a deployment bug, not a bad request: fail loudly instead of rejecting quietly.
  const keys = typeof secrets === 'string' ? [secrets] : [...secrets];
  if (keys.length === 0 || keys.some((k) => typeof k !== 'string' || k.length === 0)) {
    throw new TypeError('verifyServiceSignature needs at least one non-empty secret');
  }
  // Accepts a header value straight from IncomingHttpHeaders (typed string | string[]); the header
  // must occur once.
  if (Array.isArray(header)) {
    if (header.length > 1) return { ok: false, reason: 'malformed_header' };
    header = header[0];
  }
  if (typeof header !== 'string' || header.trim() === '') return { ok: false, reason: 'missing_header' };

  let timestamp: string | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, reason: 'malformed_header' };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !UNIX_SECONDS.test(value)) return { ok: false, reason: 'malformed_header' };
      timestamp = value;
    } else if (key === 'v1') {
      if (!V1_HEX.test(value)) return { ok: false, reason: 'malformed_header' };
      candidates.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (v0, a future v2) are ignored so a new scheme can be added without breaking this verifier.
  }
  if (timestamp === undefined || candidates.length === 0) return { ok: false, reason: 'malformed_header' };

  let body: Buffer;
  if (typeof rawBody === 'string') body = Buffer.from(rawBody, 'utf8');
  else if (rawBody instanceof Uint8Array) body = Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  else return { ok: false, reason: 'invalid_body' };

  // Every candidate is compared with every secret without stopping at the first match, on
  // equal-length (32-byte) digests, so timing says nothing about which bytes differed.
  let matched = false;
  for (const key of keys) {
    const expected = createHmac('sha256', Buffer.from(key, 'utf8')).update(`${timestamp}.`, 'utf8').update(body).digest();
    for (const candidate of candidates) {
      if (timingSafeEqual(expected, candidate)) matched = true;
    }
  }
  if (!matched) return { ok: false, reason: 'signature_mismatch' };

  // The window is checked after the signature so a stale-but-authentic request is reported as such
  // (a clock or replay problem) rather than as a forgery.
  const t = Number(timestamp);
  if (nowSec - t > toleranceSec) return { ok: false, reason: 'timestamp_too_old' };
  if (t - nowSec > futureSkewSec) return { ok: false, reason: 'timestamp_in_future' };
  return { ok: true, timestampSec: t };
}
