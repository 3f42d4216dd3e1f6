// Every table Kysely queries, each declared by the folder that owns it (the shape of the Kysely
// docs' example: one interface, one property per table). A new table is one line here plus its
// owner's declaration. The event store's es_* tables are not listed: only its adapter
// (src/eventstore/postgres) touches them, in SQL written by hand.
import type { TenantsTable, ApiKeysTable } from '../tenancy/tables.js';
import type { AccessLogTable, IdempotencyKeysTable } from '../http/tables.js';
import type { ExchangeRatesTable } from '../rates/table.js';
import type { AttachmentBlobsTable } from '../attachments/tables.js';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable, WebhookSubscriptionsTable } from '../webhooks/tables.js';
import type { ProjectionCheckpointsTable } from '../../projections/tables.js';
import type { RmEmployeesTable } from '../../projections/employees/tables.js';
import type { RmEntryReferenceNamesTable, RmTravelEntriesTable } from '../../projections/travel-entries/tables.js';
import type { RmPayoutBatchesTable } from '../../projections/payout-batches/tables.js';
import type { RmCostCentersTable } from '../../projections/cost-centers/tables.js';
import type { RmDepartmentsTable } from '../../projections/departments/tables.js';
import type { RmVehiclesTable } from '../../projections/vehicles/tables.js';
import type { RmEventFeedStreamsTable, RmEventFeedTable } from '../../projections/event-feed/tables.js';

export interface Database {
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  access_log: AccessLogTable;
  idempotency_keys: IdempotencyKeysTable;
  exchange_rates: ExchangeRatesTable;
  attachment_blobs: AttachmentBlobsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  rm_employees: RmEmployeesTable;
  rm_travel_entries: RmTravelEntriesTable;
  rm_entry_reference_names: RmEntryReferenceNamesTable;
  rm_payout_batches: RmPayoutBatchesTable;
  rm_cost_centers: RmCostCentersTable;
  rm_departments: RmDepartmentsTable;
  rm_vehicles: RmVehiclesTable;
  rm_event_feed: RmEventFeedTable;
  rm_event_feed_streams: RmEventFeedStreamsTable;
}
