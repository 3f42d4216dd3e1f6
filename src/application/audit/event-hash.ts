// The tamper-evident hash chain of a stream: each event's metadata carries `previousHash` (the hash
// of the event before it in its stream) and `hash`, SHA-256 (hex) over the previous hash followed by
// the event's canonical form: its stream id, revision, type, data and metadata without the two hash
// fields, serialized by RFC 8785 (JSON Canonicalization Scheme; canonical-json.ts writes byte for
// byte what the `canonicalize` package wrote for the chains recorded before it). The write path
// (src/application/command-handler.ts) and the verification (verify-chain.ts) both use this module,
// so they can never disagree on what was hashed.
//
// It lives in src/application rather than src/domain: it needs node:crypto, which the domain does
// not import (eslint). It is still pure: no I/O, same input, same hash.
//
// Where a chain starts (docs/auditing.md): a new stream's first event links to GENESIS_HASH (the
// SHA-256 of nothing). A stream recorded before hashing existed has unhashed events; its first
// hashed event links to the explicit marker `unchained-before-revision-N` (N its own revision), so
// the verification reports the older events as unhashed rather than silently valid.
import { hash as digest } from 'node:crypto';
import type { EventMetadata } from '../../eventstore/port.js';
import { canonicalJson } from './canonical-json.js';

/** SHA-256 of the empty input: what the first event of a stream links to. */
export const GENESIS_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** What the first hashed event of a stream with older, unhashed events links to. */
export const unchainedMarker = (revision: number): string => `unchained-before-revision-${revision}`;

/** The fields of an event the hash covers (a recorded event or one about to be appended). */
export interface HashableEvent {
  streamId: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

/**
 * The previous hash a new event at `revision` links to: the hash of the stream's last event; the
 * genesis hash for the first event of a new stream; the unchained marker after an unhashed event.
 */
export function previousHashFor(revision: number, lastHash: string | undefined): string {
  if (revision === 0) return GENESIS_HASH;
  return lastHash ?? unchainedMarker(revision);
}

/** RFC 8785 canonical form of the hashed fields (the metadata without hash and previousHash). */
export function canonicalFormOf(e: HashableEvent): string {
  // The write path hashes metadata that has no hash fields yet: no copy needed (a rest copy costs
  // more than the rest of the form's metadata).
  const m = e.metadata;
  const metadata = m.hash === undefined && m.previousHash === undefined ? m : withoutHashFields(m);
  return canonicalJson({ streamId: e.streamId, revision: e.revision, type: e.type, data: e.data, metadata });
}

function withoutHashFields(m: EventMetadata): Omit<EventMetadata, 'hash' | 'previousHash'> {
  const { hash: _hash, previousHash: _previousHash, ...rest } = m;
  return rest;
}

/**
 * SHA-256 (hex) over the previous hash's UTF-8 bytes followed by the canonical form's: one-shot
 * `crypto.hash` over the joined text, the same bytes as two updates of a Hash object at half the
 * cost (docs/benchmarks.md, session 9).
 */
export function eventHash(previousHash: string, e: HashableEvent): string {
  return digest('sha256', previousHash + canonicalFormOf(e), 'hex');
}
