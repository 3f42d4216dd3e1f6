// Row shape of es_events as read back, and its mapping to the port's RecordedEvent.
import type { EventMetadata, RecordedEvent } from '../port.js';

export interface EventRow {
  global_position: number;
  tx_id: string;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

export const EVENT_COLUMNS =
  'global_position, tx_id::text as tx_id, event_id::text as event_id, stream_id, revision, type, data, metadata, recorded_at';

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    revision: Number(row.revision),
    position: { commit: BigInt(row.tx_id), prepare: BigInt(row.global_position) },
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
  };
}
