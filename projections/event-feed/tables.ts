// The event feed's tables (migration 2026_11_25_0810_event_feed). Written only by the projection.
import type { ColumnType } from 'kysely';

/** `bigint` read as text: a store position is compared and encoded exactly, never as a double. */
type Int8 = ColumnType<string, string | bigint, string | bigint>;

export interface RmEventFeedTable {
  tenant_id: string;
  /** The event's store position (xid8 and row id on PostgreSQL, log positions on EventStoreDB). */
  pos_commit: Int8;
  pos_prepare: Int8;
  /** The dashed event GUID (Service-Event-Id); the envelope id is `evt_` + it without dashes. */
  event_guid: string;
  type: string;
  created_at: Date;
  /** The serialized envelope, byte for byte what a webhook delivery of this event carries. */
  payload: string;
}

export interface RmEventFeedStreamsTable {
  stream_id: string;
  tenant_id: string | null;
  /** The stream revision the state has folded up to. */
  revision: number;
  /** The decider state as JSON text (not jsonb: the key order of the summary must survive). */
  state: string;
}
