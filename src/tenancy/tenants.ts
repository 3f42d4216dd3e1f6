// Tenants: a country (which fixes the exchange-rate provider and base currency), an optional
// approval workflow of ordered steps, and the countries and currencies the company enables.
import { randomUUID } from 'node:crypto';
import type { Db } from '../infra/database.js';
import { DomainError, validationError } from '../domain/errors.js';
import type { Selectable, Updateable } from 'kysely';
import { baseCurrencyOf, COUNTRIES, type Country, type CustomFieldDefinition, type Tenant, type Workflow } from './model.js';
import type { TenantsTable } from './tables.js';
import { changeTenancy } from './principal-cache.js';
import { CUSTOM_FIELD_TYPES } from '../domain/employees/index.js';
import { isCountryCode } from '../domain/shared/country-codes.js';
import { currencyCatalog } from '../application/reference/countries-and-currencies.js';

// The model's names, for the modules that already import them from here (src/http/routes).
export { baseCurrencyOf, COUNTRIES, type Country, type Tenant };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export async function createTenant(db: Db, input: { name: string; country: string }): Promise<Tenant> {
  const errors: Record<string, string[]> = {};
  const name = input.name?.trim() ?? '';
  if (name.length === 0 || name.length > 200) errors.name = ['A name of 1 to 200 characters is required.'];
  if (!(COUNTRIES as readonly string[]).includes(input.country)) errors.country = [`Must be one of ${COUNTRIES.join(', ')}.`];
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const country = input.country as Country;
  const tenant: Tenant = {
    id: randomUUID(),
    name,
    country,
    baseCurrency: baseCurrencyOf(country),
    workflow: null,
    customFields: [],
    enabledCountries: null,
    enabledCurrencies: null,
  };
  await db.insertInto('tenants').values({ id: tenant.id, name, country, base_currency: tenant.baseCurrency, workflow: null }).execute();
  return tenant;
}

export async function getTenant(db: Db, id: string): Promise<Tenant | undefined> {
  if (!UUID.test(id)) return undefined;
  const row = await db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
  return row && tenantOfRow(row);
}

/**
 * Approver ids lower-case: a workflow stored before parseWorkflow lower-cased them kept the case it
 * was typed in, and submission matches them against active employees' ids, which the database
 * answers lower-case. Upper-case, such a step lost every approver and was skipped, and an entry with
 * every step skipped was approved at once (session 17's review).
 */
function canonicalWorkflow(workflow: Workflow): Workflow {
  return { steps: workflow.steps.map((s) => ({ approverIds: s.approverIds.map((id) => id.toLowerCase()) })) };
}

export function tenantOfRow(
  row: Pick<
    Selectable<TenantsTable>,
    'id' | 'name' | 'country' | 'base_currency' | 'workflow' | 'custom_fields' | 'enabled_countries' | 'enabled_currencies'
  >,
): Tenant {
  return {
    id: row.id,
    name: row.name,
    country: row.country,
    baseCurrency: row.base_currency,
    workflow: row.workflow && canonicalWorkflow(row.workflow),
    customFields: row.custom_fields,
    enabledCountries: row.enabled_countries,
    enabledCurrencies: row.enabled_currencies,
  };
}

export function parseWorkflow(raw: unknown): Workflow {
  const bad = (msg: string): never => {
    throw validationError({ steps: [msg] });
  };
  if (!Array.isArray(raw)) return bad('Steps must be a JSON array of { "approverIds": [uuid, ...] }.');
  if (raw.length === 0) return bad('A workflow needs at least one step; use --none to remove the workflow.');
  return {
    steps: raw.map((step, i) => {
      const ids = (step as { approverIds?: unknown })?.approverIds;
      if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string' || !UUID.test(x))) {
        return bad(`Step ${i + 1} needs "approverIds": an array of employee UUIDs.`);
      }
      return { approverIds: [...new Set((ids as string[]).map((id) => id.toLowerCase()))] };
    }),
  };
}

export async function setWorkflow(db: Db, tenantId: string, workflow: Workflow | null): Promise<Tenant> {
  return updateTenant(db, tenantId, { workflow: workflow === null ? null : JSON.stringify(workflow) });
}

/** Tenant facts travel with cached principals: every change announces itself (principal-cache.ts). */
async function updateTenant(db: Db, tenantId: string, set: Updateable<TenantsTable>): Promise<Tenant> {
  const updated = await changeTenancy(db, async (trx) => {
    const r = await trx
      .updateTable('tenants')
      .set({ ...set, updated_at: new Date() })
      .where('id', '=', tenantId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0 ? true : undefined;
  });
  if (!updated) throw new DomainError('TENANT_NOT_FOUND', `Tenant ${tenantId} was not found.`);
  return (await getTenant(db, tenantId))!;
}

const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export function parseCustomFieldDefinitions(raw: unknown): CustomFieldDefinition[] {
  const bad = (msg: string): never => {
    throw validationError({ definitions: [msg] });
  };
  if (!Array.isArray(raw)) return bad('Definitions must be a JSON array of { "key", "type": text|number|boolean|date, "required" }.');
  const seen = new Set<string>();
  return raw.map((d, i) => {
    const { key, type, required } = (d ?? {}) as Record<string, unknown>;
    if (typeof key !== 'string' || !FIELD_KEY.test(key))
      return bad(`Definition ${i + 1}: "key" must be a letter followed by letters, digits or _ (at most 64).`);
    if (seen.has(key)) return bad(`Definition ${i + 1}: duplicate key "${key}".`);
    seen.add(key);
    if (typeof type !== 'string' || !(CUSTOM_FIELD_TYPES as readonly string[]).includes(type))
      return bad(`Definition ${i + 1}: "type" must be one of ${CUSTOM_FIELD_TYPES.join(', ')}.`);
    return { key, type: type as CustomFieldDefinition['type'], required: required === true };
  });
}

export async function setCustomFields(db: Db, tenantId: string, definitions: CustomFieldDefinition[]): Promise<Tenant> {
  return updateTenant(db, tenantId, { custom_fields: JSON.stringify(definitions) });
}

/** A change to the enabled lists: null enables all; a list left out stays as it is. */
export interface EnabledLists {
  countries?: string[] | null;
  currencies?: string[] | null;
}

/**
 * Parses `HR,SI,AT` and `EUR,USD` (commas or spaces; case-insensitive): every code must be known
 * (ISO 3166-1 alpha-2 or XK; ISO 4217), the result is upper case, sorted and without repeats.
 * An empty list is refused: a company that enables nothing could record no trip.
 */
export function parseEnabledList(field: 'countries' | 'currencies', raw: string): string[] {
  const codes = raw
    .split(/[\s,]+/)
    .map((c) => c.trim().toUpperCase())
    .filter((c) => c !== '');
  if (codes.length === 0) throw validationError({ [field]: [`Name at least one code, or use --all.`] });
  const known = field === 'countries' ? isCountryCode : (c: string) => currencyCatalog().some((x) => x.code === c);
  const unknown = codes.filter((c) => !known(c));
  if (unknown.length > 0) {
    const what = field === 'countries' ? 'ISO 3166-1 alpha-2 country codes (or XK)' : 'ISO 4217 currency codes';
    throw validationError({ [field]: [`Unknown ${what}: ${[...new Set(unknown)].join(', ')}.`] });
  }
  return [...new Set(codes)].sort();
}

export async function setEnabledLists(db: Db, tenantId: string, lists: EnabledLists): Promise<Tenant> {
  return updateTenant(db, tenantId, {
    ...(lists.countries !== undefined && { enabled_countries: lists.countries }),
    ...(lists.currencies !== undefined && { enabled_currencies: lists.currencies }),
  });
}
