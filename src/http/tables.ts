// The tables the HTTP layer owns (migration 2026_11_20_0010_tenancy): the record of personal-data
// reads and the stored answers of idempotent requests. src/infra/schema.ts lists them in Database.
import type { ColumnType, Generated } from 'kysely';

export interface AccessLogTable {
  /** `bigint generated always as identity`: never written. */
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
  /** `jsonb`, nullable; written as JSON text. */
  response_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  response_body: string | null;
  created_at: Generated<Date>;
  /** The claiming request's id (its events' correlationId); null on claims made before session 22. */
  request_id: string | null;
  /** The log's head when the key was claimed (formatPosition); null: an empty log, or a claim made before session 22. */
  log_position: string | null;
  /** The server's token of the request holding the claim: fences a takeover and the answer. */
  claim_token: string | null;
  /** Set when the claiming request ended with a 5xx: a retry is judged by the log once its append has settled. */
  failed_at: Date | null;
}
