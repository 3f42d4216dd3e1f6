// The feed cursor: opaque to partners, a store position to us (`f1.<commit>.<prepare>`), sealed
// (src/infra/cursor-seal.ts: the positions count every tenant's writes). Positions never change,
// so a cursor stays valid across a rebuild of the feed and across releases that keep the `f1`
// form and SECRETS_KEY. Cursors issued before session 25 were the form in plain base64url, which
// anyone can write: still read, never issued, but only where the route finds that it names the
// start or one of the tenant's own events (all an issued one ever named), so a made-up position
// cannot probe the log (a review, session 25). Session 25's sealed cursors named no tenant: read the
// same way. Anything else is a 400 on `after`.
import type { FeedPosition } from '../../../../projections/event-feed/queries.js';
import type { CursorSeal } from '../../../infra/cursor-seal.js';

const FORM = /^f1\.(\d{1,19})\.(\d{1,19})$/;
const PLAIN = /^ZjEu/; // base64url of `f1.`
const INT8_MAX = 9_223_372_036_854_775_807n;

/** Sealed for `tenantId` (cursor-seal.ts): another tenant's key cannot use it. */
export function encodeCursor(seal: CursorSeal, p: FeedPosition, tenantId: string): string {
  return seal.seal(`f1.${p.commit}.${p.prepare}`, tenantId);
}

/**
 * The position, and whether it came sealed for this tenant; undefined when the text is not a cursor
 * this service issued. Any other is the caller's to check (see above).
 */
export function decodeCursor(seal: CursorSeal, text: string, tenantId: string): { position: FeedPosition; sealed: boolean } | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  let form: string | undefined;
  let sealed = false;
  if (PLAIN.test(text)) form = Buffer.from(text, 'base64url').toString('utf8');
  else {
    form = seal.open(text, tenantId);
    sealed = form !== undefined;
    // Sealed in session 25, before cursors named their tenant: read, and checked as a plain one is,
    // so a partner's stored cursor keeps working and another tenant's does not.
    form ??= seal.open(text, '');
  }
  const m = form === undefined ? null : FORM.exec(form);
  if (!m || BigInt(m[1]!) > INT8_MAX || BigInt(m[2]!) > INT8_MAX) return undefined;
  return { position: { commit: BigInt(m[1]!).toString(), prepare: BigInt(m[2]!).toString() }, sealed };
}

/** The cursor before the first event (what an empty page from the start answers). */
export const START: FeedPosition = { commit: '0', prepare: '0' };
