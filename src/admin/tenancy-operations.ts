// `tenant …` and `api-key …`: tenants and their keys are operator configuration, not domain streams.
import { validationError } from '../domain/errors.js';
import { createApiKey, parseScopes, revokeApiKey } from '../tenancy/api-keys.js';
import {
  createTenant,
  parseCustomFieldDefinitions,
  parseEnabledList,
  parseWorkflow,
  setCustomFields,
  setEnabledLists,
  setWorkflow,
} from '../tenancy/tenants.js';
import { optStr, str, uuidArg, type Operation } from './operation.js';

export const tenancyOperations: Record<string, Operation> = {
  'tenant create': async ({ db }, args) => {
    const t = await createTenant(db, { name: str(args, 'name'), country: str(args, 'country') });
    return { tenantId: t.id, name: t.name, country: t.country, baseCurrency: t.baseCurrency };
  },
  'tenant set-workflow': async ({ db }, args) => {
    const tenantId = uuidArg(args, 'tenant', 'a tenant id');
    if (args.none === true) return { tenantId, workflow: (await setWorkflow(db, tenantId, null)).workflow };
    let steps: unknown;
    try {
      steps = JSON.parse(str(args, 'steps'));
    } catch {
      throw validationError({ steps: ['--steps must be JSON, e.g. \'[{"approverIds":["<employee uuid>"]}]\'.'] });
    }
    return { tenantId, workflow: (await setWorkflow(db, tenantId, parseWorkflow(steps))).workflow };
  },
  'tenant set-custom-fields': async ({ db }, args) => {
    const tenantId = uuidArg(args, 'tenant', 'a tenant id');
    let definitions: unknown;
    try {
      definitions = JSON.parse(str(args, 'definitions'));
    } catch {
      throw validationError({ definitions: ['--definitions must be JSON, e.g. \'[{"key":"costCode","type":"text","required":true}]\'.'] });
    }
    return { tenantId, customFields: (await setCustomFields(db, tenantId, parseCustomFieldDefinitions(definitions))).customFields };
  },
  // `--all` enables every country and currency (stored as null); otherwise each list given replaces
  // the stored one and a list not given stays as it is.
  'tenant set-enabled': async ({ db }, args) => {
    const tenantId = uuidArg(args, 'tenant', 'a tenant id');
    const countries = optStr(args, 'countries');
    const currencies = optStr(args, 'currencies');
    if (args.all === true && (countries !== undefined || currencies !== undefined)) {
      throw validationError({ all: ['--all enables everything: give it alone, or give --countries and/or --currencies.'] });
    }
    if (args.all !== true && countries === undefined && currencies === undefined) {
      throw validationError({ countries: ['Give --countries and/or --currencies, or --all.'] });
    }
    const t = await setEnabledLists(
      db,
      tenantId,
      args.all === true
        ? { countries: null, currencies: null }
        : {
            ...(countries !== undefined && { countries: parseEnabledList('countries', countries) }),
            ...(currencies !== undefined && { currencies: parseEnabledList('currencies', currencies) }),
          },
    );
    return { tenantId, enabledCountries: t.enabledCountries, enabledCurrencies: t.enabledCurrencies };
  },
  'api-key create': async ({ db }, args) => {
    const created = await createApiKey(db, {
      tenantId: uuidArg(args, 'tenant', 'a tenant id'),
      name: optStr(args, 'name'),
      scopes: parseScopes(optStr(args, 'scopes')),
    });
    return { apiKeyId: created.apiKeyId, key: created.key, prefix: created.prefix, name: created.name, scopes: created.scopes };
  },
  'api-key revoke': async ({ db }, args) => revokeApiKey(db, uuidArg(args, 'id', 'an API key id')),
};
