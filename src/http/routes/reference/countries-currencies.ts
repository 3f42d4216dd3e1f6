// GET /api/v1/reference/countries and /currencies: the ISO lists with the calling company's
// enabled lists applied (`enabled`) and, for currencies, whether its exchange-rate provider has a
// rate that applies today (`rateAvailable`). Private to the tenant: ETag of the tenant's lists and
// what the answer shows, revalidated on every use.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { countryCatalog, currencyCatalog } from '../../../application/reference/countries-and-currencies.js';
import { listRates } from '../../../rates/query.js';
import { providerForCountry } from '../../../rates/providers.js';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { etagFor, NotModified, notModified } from './conditional.js';

const PRIVATE_CACHE_CONTROL = 'private, no-cache';

export const ReferenceCountry = Type.Object(
  {
    code: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 (and XK, Kosovo).' }),
    name: Type.String({ description: 'English short name (ISO 3166-1).' }),
    enabled: Type.Boolean({ description: "In the company's enabled countries (all are, while the company enables all)." }),
  },
  { $id: 'ReferenceCountry', examples: [{ code: 'HR', name: 'Croatia', enabled: true }] },
);

export const ReferenceCurrency = Type.Object(
  {
    code: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 alphabetic code.' }),
    name: Type.String({ description: 'ISO 4217 currency name.' }),
    enabled: Type.Boolean({ description: "In the company's enabled currencies (all are, while the company enables all)." }),
    rateAvailable: Type.Boolean({
      description:
        "Whether the company's exchange-rate provider (HNB, ECB or CNB) has a rate for it that applies today (published within the last 7 days); the base currency always converts at 1.",
    }),
  },
  { $id: 'ReferenceCurrency', examples: [{ code: 'USD', name: 'US Dollar', enabled: true, rateAvailable: true }] },
);

export const ReferenceCountryList = Type.Object(
  { items: Type.Array(ref(ReferenceCountry)) },
  { $id: 'ReferenceCountryList', examples: [{ items: [{ code: 'HR', name: 'Croatia', enabled: true }] }] },
);
export const ReferenceCurrencyList = Type.Object(
  { items: Type.Array(ref(ReferenceCurrency)) },
  {
    $id: 'ReferenceCurrencyList',
    examples: [{ items: [{ code: 'EUR', name: 'Euro', enabled: true, rateAvailable: true }] }],
  },
);

const Query = Type.Object(
  { enabled: Type.Optional(Type.Boolean({ description: 'true: only the enabled ones; false: only the others.' })) },
  { additionalProperties: false },
);

export const countryCurrencyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reference/countries',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['Reference data'],
        summary: "Countries (ISO 3166-1 and XK) with the company's enabled ones marked",
        querystring: Query,
        response: { 200: ref(ReferenceCountryList), 304: NotModified, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const enabledList = principalOf(request).tenant.enabledCountries;
      const enabled = enabledList === null ? null : new Set(enabledList);
      if (notModified(request, reply, etagFor(['countries', 1, enabledList, request.query.enabled ?? null]), PRIVATE_CACHE_CONTROL)) {
        return reply;
      }
      const items = countryCatalog()
        .map((c) => ({ ...c, enabled: enabled === null || enabled.has(c.code) }))
        .filter((c) => request.query.enabled === undefined || c.enabled === request.query.enabled);
      return { items };
    },
  );

  app.get(
    '/reference/currencies',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['Reference data'],
        summary: "Currencies (ISO 4217) with the company's enabled ones marked and whether its provider has a rate",
        querystring: Query,
        response: { 200: ref(ReferenceCurrencyList), 304: NotModified, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const tenant = principalOf(request).tenant;
      const enabled = tenant.enabledCurrencies === null ? null : new Set(tenant.enabledCurrencies);
      const provider = providerForCountry(tenant.country);
      const today = new Date().toISOString().slice(0, 10);
      const rated = new Set((await listRates(app.deps.db, { provider: provider.code, date: today })).map((r) => r.currency));
      rated.add(provider.baseCurrency);
      const items = currencyCatalog()
        .map((c) => ({ ...c, enabled: enabled === null || enabled.has(c.code), rateAvailable: rated.has(c.code) }))
        .filter((c) => request.query.enabled === undefined || c.enabled === request.query.enabled);
      if (notModified(request, reply, etagFor(['currencies', 1, items]), PRIVATE_CACHE_CONTROL)) return reply;
      return { items };
    },
  );
};

export const countryCurrencySchemas = [ReferenceCountry, ReferenceCurrency, ReferenceCountryList, ReferenceCurrencyList];
