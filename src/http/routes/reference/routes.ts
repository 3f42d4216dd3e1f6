// Reference data: the exchange rates of the calling tenant's provider.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listRates } from '../../../rates/query.js';
import { providerForCountry } from '../../../rates/providers.js';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses, StringEnum } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';

export const ExchangeRate = Type.Object(
  {
    source: StringEnum(['HNB', 'ECB', 'CNB'] as const, { description: 'Provider code.' }),
    date: Type.String({ format: 'date', description: 'Publication date of the applied list (up to 7 days before the requested date).' }),
    currency: Type.String(),
    rate: Type.Number(),
    units: Type.Integer({ description: 'Foreign units the rate is quoted for (CNB quotes some currencies per 100).' }),
    baseCurrency: Type.String({ description: "The provider's reference currency: EUR for HNB and ECB, CZK for CNB." }),
    direction: StringEnum(['ForeignPerBase', 'BasePerForeign'] as const, {
      $id: 'RateDirection',
      description:
        'ForeignPerBase (HNB, ECB): divide by the rate to convert to the base currency. BasePerForeign (CNB): multiply (per units).',
    }),
  },
  { $id: 'ExchangeRate' },
);

const Query = Type.Object(
  {
    date: Type.Optional(Type.String({ format: 'date', description: 'yyyy-MM-dd; default today (UTC).' })),
    currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217; default all currencies.' })),
  },
  { additionalProperties: false },
);

export const referenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reference/exchange-rates',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['Reference data'],
        summary: "Exchange rates of the company's provider as they apply on a date",
        querystring: Query,
        response: { 200: Type.Object({ items: Type.Array(ref(ExchangeRate)) }), ...errorResponses() },
      },
    },
    async (request) => {
      const tenant = principalOf(request).tenant;
      const rates = await listRates(app.deps.db, {
        provider: providerForCountry(tenant.country).code,
        date: request.query.date ?? new Date().toISOString().slice(0, 10),
        currency: request.query.currency,
      });
      return { items: rates.map((r) => ({ ...r, rate: Number(r.rate) })) };
    },
  );
};
