// The company profile of the calling key's tenant.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses, StringEnum } from '../../schemas/common.js';
import { COUNTRIES } from '../../../tenancy/tenants.js';

const Company = Type.Object(
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
  },
  { $id: 'Company' },
);

export const PROVIDER_BY_COUNTRY = { HR: 'HNB', SI: 'ECB', SK: 'ECB', CZ: 'CNB' } as const;

export const companyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/company',
    {
      config: { scope: 'read' },
      schema: { tags: ['Company'], summary: "The calling key's company profile", response: { 200: Company, ...errorResponses() } },
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
      };
    },
  );
};
