import type { ColumnType, Generated } from 'kysely';
import type { CustomFieldDefinition } from '../domain/employees/index.js';

export type { CustomFieldDefinition };

export interface WorkflowStep { approverIds: string[] }
export interface Workflow { steps: WorkflowStep[] }

export interface TenantsTable {
  id: string;
  name: string;
  country: 'HR' | 'SI' | 'CZ' | 'SK';
  base_currency: string;
  workflow: ColumnType<Workflow | null, string | null, string | null>;
  custom_fields: ColumnType<CustomFieldDefinition[], string | undefined, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  key_hash: Buffer;
  scopes: string[];
  created_at: Generated<Date>;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export interface AccessLogTable {
  id: Generated<number>;
  tenant_id: string;
  api_key_id: string;
  request_id: string;
  method: string;
  resource_type: string;
  resource_id: string | null;
  accessed_at: Generated<Date>;
}

export interface IdempotencyKeysTable {
  tenant_id: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  status_code: number | null;
  response_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  response_body: string | null;
  created_at: Generated<Date>;
}

export interface ProjectionCheckpointsTable {
  name: string;
  position: string | null;
  events_processed: ColumnType<number, number | undefined, number>;
  /** Bumped by every batch and reset; announced on NOTIFY read_models (src/http/read-cache.ts). */
  version: Generated<string>;
  updated_at: Generated<Date>;
}

declare module '../infra/database.js' {
  interface Database {
    tenants: TenantsTable;
    api_keys: ApiKeysTable;
    access_log: AccessLogTable;
    idempotency_keys: IdempotencyKeysTable;
    projection_checkpoints: ProjectionCheckpointsTable;
  }
}
