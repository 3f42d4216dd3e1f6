// Mapping between the port's events and the client's. Events are stored as JSON (content type
// application/json) with plain-JSON metadata, so the server's own tools (stream browser,
// projections) can read them. The correlation and causation ids are also written under ESDB's
// `$correlationId` / `$causationId` keys, which its system projections understand; those
// `$`-keys are dropped again on read, so a stored event reads back as it was appended.
import type { EventData, JSONType, Position as EsdbPosition } from '@eventstore/db-client';
import type { EventMetadata, NewEvent, Position, RecordedEvent } from '../port.js';

/** The fields this adapter reads from the client's recorded events (reads, subscriptions, persistent subscriptions). */
export interface EsdbRecordedEvent {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  created: Date;
  data: unknown;
  metadata: unknown;
  position?: EsdbPosition | undefined;
}

export function toEventData(e: NewEvent): EventData {
  return {
    id: e.id,
    contentType: 'application/json',
    type: e.type,
    // The port types data as unknown; every domain event's data is a JSON object, and the client
    // serialises it with JSON.stringify whatever its static type.
    data: e.data as JSONType,
    metadata: { ...e.metadata, $correlationId: e.metadata.correlationId, $causationId: e.metadata.causationId },
  };
}

export function toRecorded(e: EsdbRecordedEvent): RecordedEvent {
  if (!e.position) {
    throw new Error(`EventStoreDB returned ${e.revision}@${e.streamId} without its log position (server 22.6 or later is required)`);
  }
  return {
    id: e.id,
    type: e.type,
    data: e.data,
    metadata: portMetadata(e.metadata),
    streamId: e.streamId,
    revision: Number(e.revision),
    position: toPosition(e.position),
    recordedAt: e.created,
  };
}

export function toPosition(p: EsdbPosition): Position {
  return { commit: p.commit, prepare: p.prepare };
}

/** System streams and events ($-prefixed) belong to the server, never to the port's feed. */
export function isSystemEvent(e: { streamId: string; type: string }): boolean {
  return e.streamId.startsWith('$') || e.type.startsWith('$');
}

function portMetadata(stored: unknown): EventMetadata {
  if (stored === null || typeof stored !== 'object' || stored instanceof Uint8Array) {
    // Not written by this adapter (binary or absent metadata): handed on as stored.
    return stored as EventMetadata;
  }
  const own = Object.entries(stored).filter(([key]) => !key.startsWith('$'));
  // Written by this adapter from an EventMetadata (see toEventData).
  return Object.fromEntries(own) as unknown as EventMetadata;
}
