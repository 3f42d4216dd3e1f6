// Cursors carry positions of the whole store: a feed cursor the log's commit and event positions,
// an incremental sync's cursor a write sequence shared by every tenant. Read as plain text they let
// one tenant count every tenant's writes between two of its pages (the fuzzing try, session 25).
// So a cursor is sealed: AES-256-GCM under a key derived from SECRETS_KEY (every process of a
// deployment holds it), with the nonce derived from the text by HMAC (a synthetic IV), so one
// position always gives the same cursor and a cursor altered or made up does not open. Node offers
// no AES-SIV; this is the same construction from its parts (docs/decisions.md).
// A cursor is sealed for one tenant (`owner`: authenticated with it, and in its nonce): another
// tenant's key sending it gets a 400, not an empty page that silently skips its own rows (a review,
// session 26: an integrator serving several companies who mixes up stored cursors).
import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';

export interface CursorSeal {
  seal(text: string, owner: string): string;
  /** The text, or undefined for anything this deployment did not seal for `owner`. */
  open(token: string, owner: string): string | undefined;
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEAD = 1 + IV_BYTES + TAG_BYTES;

export function cursorSeal(secretsKey: Buffer): CursorSeal {
  // Keys of their own, so a cursor never shares a key with the webhook secrets' box.
  const derived = Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'travelog cursor seal v1', 64));
  const encryptionKey = derived.subarray(0, 32);
  const ivKey = derived.subarray(32);
  return {
    seal(text, owner) {
      const plain = Buffer.from(text, 'utf8');
      const aad = Buffer.from(owner, 'utf8');
      const iv = createHmac('sha256', ivKey).update(aad).update(Buffer.of(0)).update(plain).digest().subarray(0, IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      cipher.setAAD(aad);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.of(VERSION), iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(token, owner) {
      const raw = Buffer.from(token, 'base64url');
      if (raw.length <= HEAD || raw[0] !== VERSION) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', encryptionKey, raw.subarray(1, 1 + IV_BYTES));
        decipher.setAAD(Buffer.from(owner, 'utf8'));
        decipher.setAuthTag(raw.subarray(1 + IV_BYTES, HEAD));
        return Buffer.concat([decipher.update(raw.subarray(HEAD)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
