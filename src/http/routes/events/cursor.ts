// The feed cursor: opaque to partners, a store position to us (base64url of `f1.<commit>.<prepare>`).
// Positions never change, so a cursor stays valid across a rebuild of the feed and across releases
// that keep the `f1` form. Anything that does not decode to one is a 400 on `after`.
import type { FeedPosition } from '../../../../projections/event-feed/queries.js';

const FORM = /^f1\.(\d{1,19})\.(\d{1,19})$/;
const INT8_MAX = 9_223_372_036_854_775_807n;

export function encodeCursor(p: FeedPosition): string {
  return Buffer.from(`f1.${p.commit}.${p.prepare}`, 'utf8').toString('base64url');
}

/** Undefined when the text is not a cursor this service issued. */
export function decodeCursor(text: string): FeedPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(text)) return undefined;
  const m = FORM.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!m || BigInt(m[1]!) > INT8_MAX || BigInt(m[2]!) > INT8_MAX) return undefined;
  return { commit: BigInt(m[1]!).toString(), prepare: BigInt(m[2]!).toString() };
}

/** The cursor before the first event (what an empty page from the start answers). */
export const START: FeedPosition = { commit: '0', prepare: '0' };
