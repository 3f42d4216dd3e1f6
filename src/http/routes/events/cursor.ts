// The feed cursor: opaque to partners, a store position to us (`f1.<commit>.<prepare>`), sealed
// (src/infra/cursor-seal.ts: the positions count every tenant's writes). Positions never change,
// so a cursor stays valid across a rebuild of the feed and across releases that keep the `f1`
// form and SECRETS_KEY. Cursors issued before session 25 were the form in plain base64url: still
// read, never issued. Anything that does not open to one is a 400 on `after`.
import type { FeedPosition } from '../../../../projections/event-feed/queries.js';
import type { CursorSeal } from '../../../infra/cursor-seal.js';

const FORM = /^f1\.(\d{1,19})\.(\d{1,19})$/;
const PLAIN = /^ZjEu/; // base64url of `f1.`
const INT8_MAX = 9_223_372_036_854_775_807n;

export function encodeCursor(seal: CursorSeal, p: FeedPosition): string {
  return seal.seal(`f1.${p.commit}.${p.prepare}`);
}

/** Undefined when the text is not a cursor this service issued. */
export function decodeCursor(seal: CursorSeal, text: string): FeedPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const form = PLAIN.test(text) ? Buffer.from(text, 'base64url').toString('utf8') : seal.open(text);
  const m = form === undefined ? null : FORM.exec(form);
  if (!m || BigInt(m[1]!) > INT8_MAX || BigInt(m[2]!) > INT8_MAX) return undefined;
  return { commit: BigInt(m[1]!).toString(), prepare: BigInt(m[2]!).toString() };
}

/** The cursor before the first event (what an empty page from the start answers). */
export const START: FeedPosition = { commit: '0', prepare: '0' };
