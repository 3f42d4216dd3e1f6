// The company profile of the calling key's tenant.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses, StringEnum } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { COUNTRIES } from '../../../tenancy/tenants.js';

export const Company = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    country: StringEnum(COUNTRIES, { $id: 'CountryCode' }),
    baseCurrency: Type.String(),
    exchangeRateProvider: StringEnum(['HNB', 'ECB', 'CNB'] as const, { $id: 'ExchangeRateProvider' }),
    approvalWorkflow: Type.Union([
      Type.Null(),
      Type.Object({ steps: Type.Array(Type.Object({ approverIds: Type.Array(Type.String({ format: 'uuid' })) })) }),
    ]),
    enabledCountries: Type.Union([Type.Null(), Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }))], {
      description:
        'ISO 3166-1 alpha-2 codes (and XK) entries may name, sorted; null: every country. Names: GET /api/v1/reference/countries.',
    }),
    enabledCurrencies: Type.Union([Type.Null(), Type.Array(Type.String({ pattern: '^[A-Z]{3}$' }))], {
      description: 'ISO 4217 codes entries may be paid in, sorted; null: every currency. Names: GET /api/v1/reference/currencies.',
    }),
  },
  {
    $id: 'Company',
    examples: [
      {
        id: '4c0d7a52-3b8e-4f0e-9c57-2d1f0a6b9e11',
        name: 'Acme d.o.o.',
        country: 'HR',
        baseCurrency: 'EUR',
        exchangeRateProvider: 'HNB',
        approvalWorkflow: null,
        enabledCountries: ['AT', 'HR', 'SI'],
        enabledCurrencies: null,
      },
    ],
  },
);

export const PROVIDER_BY_COUNTRY = { HR: 'HNB', SI: 'ECB', SK: 'ECB', CZ: 'CNB' } as const;

export const companyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/company',
    {
      config: { scope: 'read' },
      schema: { tags: ['Company'], summary: "The calling key's company profile", response: { 200: ref(Company), ...errorResponses() } },
    },
    async (request) => {
      const tenant = principalOf(request).tenant;
      return {
        id: tenant.id,
        name: tenant.name,
        country: tenant.country,
        baseCurrency: tenant.baseCurrency,
        exchangeRateProvider: PROVIDER_BY_COUNTRY[tenant.country],
        approvalWorkflow: tenant.workflow,
        enabledCountries: tenant.enabledCountries,
        enabledCurrencies: tenant.enabledCurrencies,
      };
    },
  );
};
