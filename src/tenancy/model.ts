// What tenancy is, as the rest of the system sees it: tenants (a country, which fixes the
// exchange-rate provider and base currency, an optional approval workflow and the custom fields of
// employees) and the principal an API key authenticates as. Types and constants only, so every
// tenancy module (and the HTTP layer) can import them without importing each other.
import type { CustomFieldDefinition } from '../domain/employees/index.js';

export type { CustomFieldDefinition };

export const COUNTRIES = ['HR', 'SI', 'CZ', 'SK'] as const;
export type Country = (typeof COUNTRIES)[number];

/** Czechia keeps the koruna; the other three use the euro. */
export const baseCurrencyOf = (country: Country): string => (country === 'CZ' ? 'CZK' : 'EUR');

export interface WorkflowStep {
  approverIds: string[];
}
export interface Workflow {
  steps: WorkflowStep[];
}

export interface Tenant {
  id: string;
  name: string;
  country: Country;
  baseCurrency: string;
  workflow: Workflow | null;
  customFields: CustomFieldDefinition[];
  /** ISO 3166-1 alpha-2 codes the company travels to, sorted; null: all countries. */
  enabledCountries: string[] | null;
  /** ISO 4217 codes the company pays in, sorted; null: all currencies. */
  enabledCurrencies: string[] | null;
}

export const SCOPES = ['read', 'write', 'webhooks', 'audit'] as const;
export type Scope = (typeof SCOPES)[number];

export interface ApiKeyPrincipal {
  apiKeyId: string;
  tenantId: string;
  scopes: Scope[];
  prefix: string;
  /** The key's tenant as of this request, read with the key (most commands need its country). */
  tenant: Tenant;
}
