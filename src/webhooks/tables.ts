// Row types of the webhook tables (migration 2026_11_20_0400_webhooks), listed in src/infra/schema.ts.
import type { ColumnType, Generated } from 'kysely';

export type DeliveryStatus = 'Pending' | 'Succeeded' | 'Failed' | 'Exhausted';
/** `Cancelled` is internal: the pending deliveries of a deleted subscription, never shown (the subscription is gone). */
export type StoredDeliveryStatus = DeliveryStatus | 'Cancelled';

export interface WebhookSubscriptionsTable {
  id: string;
  tenant_id: string;
  url: string;
  event_types: string[];
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  is_active: Generated<boolean>;
  disabled_at: Date | null;
  disabled_reason: string | null;
  consecutive_exhausted: Generated<number>;
  create_idempotency_key: string | null;
  create_request_hash: string | null;
  rotation_idempotency_key: string | null;
  rotated_at: Date | null;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  subscription_id: string;
  tenant_id: string;
  event_id: string;
  source_event_id: string;
  event_type: string;
  payload: Buffer;
  status: StoredDeliveryStatus;
  attempt_count: Generated<number>;
  next_attempt_at: Date | null;
  lease_token: string | null;
  /** The backend pid of the claiming dispatcher's liveness session (migration 2026_11_26_0700). */
  lease_owner: number | null;
  single_attempt: Generated<boolean>;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_response_body: string | null;
  last_failure_class: string | null;
  created_at: Generated<Date>;
}

export interface WebhookDeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt_number: number;
  attempted_at: Date;
  manual: boolean;
  status_code: number | null;
  latency_ms: number;
  failure_class: string | null;
  error_message: string;
  response_body: string | null;
  response_truncated: ColumnType<boolean, boolean | undefined, boolean>;
}
