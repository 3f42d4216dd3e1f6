// The tables tenancy owns (migrations 2026_11_20_0010_tenancy, 2026_11_20_0011_tenant_custom_fields,
// 2026_11_25_0710_tenant_enabled_lists),
// as Kysely sees them; src/infra/schema.ts lists them in the Database interface.
import type { ColumnType, Generated } from 'kysely';
import type { Country, CustomFieldDefinition, Workflow } from './model.js';

export interface TenantsTable {
  id: string;
  name: string;
  /** `text` with a check constraint on the four countries. */
  country: Country;
  base_currency: string;
  /** `jsonb`, nullable; written as JSON text. */
  workflow: ColumnType<Workflow | null, string | null, string | null>;
  /** `jsonb not null default '[]'`; written as JSON text. */
  custom_fields: ColumnType<CustomFieldDefinition[], string | undefined, string>;
  /** `text[]`, nullable: the enabled ISO country codes; null means all. */
  enabled_countries: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  /** `text[]`, nullable: the enabled ISO 4217 currency codes; null means all. */
  enabled_currencies: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  /** `bytea`: the SHA-256 of the key, never the key. */
  key_hash: Buffer;
  scopes: string[];
  created_at: Generated<Date>;
  revoked_at: Date | null;
  last_used_at: Date | null;
}
