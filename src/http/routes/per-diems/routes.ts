// Per diems by law: the stateless calculator, the company law's rate table as reference data, and
// the two operations the calculator replaced (410 Gone, naming it).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError } from '../../../domain/errors.js';
import {
  domesticAmountsOn,
  foreignRateOn,
  isPerDiemLaw,
  LAW_DESCRIPTIONS,
  tableVersionOn,
  type PerDiemLaw,
} from '../../../domain/per-diems/index.js';
import { isCountryCode } from '../../../domain/shared/country-codes.js';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses, IdParams } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { PerDiemCalculation, PerDiemItinerary, PerDiemRateTable } from './schemas.js';
import { presentCalculation } from './present.js';

const tags = ['Per diems'];
const CALCULATOR = 'POST /api/v1/utilities/per-diems/calculate';

const RateTableQuery = Type.Object(
  {
    date: Type.Optional(Type.String({ format: 'date', description: 'yyyy-MM-dd; default today (UTC).' })),
    countryCode: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'Only this destination.' })),
  },
  { additionalProperties: false },
);

export const perDiemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { perDiems } = app.deps;

  app.post(
    '/utilities/per-diems/calculate',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: "Compute per diems for an itinerary by the company's law (stateless: nothing is stored)",
        description:
          'Rows per leg (HR, SI) or per leg and calendar day (CZ, SK) with the whole trip’s redistribution applied. The pairs ' +
          '(countryCode, departureTime) of the rows key per-row meals here and in from-itinerary.',
        body: ref(PerDiemItinerary),
        response: { 200: ref(PerDiemCalculation), ...errorResponses('PER_DIEM_RATE_UNAVAILABLE', 'EXCHANGE_RATE_UNAVAILABLE') },
      },
    },
    async (request) => presentCalculation(await perDiems.calculate(lawOf(principalOf(request).tenant.country), request.body)),
  );

  app.get(
    '/reference/per-diem-rates',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['Reference data'],
        summary: "The company law's per-diem amounts, bands, meal reductions and foreign rates in force on a date",
        querystring: RateTableQuery,
        response: { 200: ref(PerDiemRateTable), ...errorResponses() },
      },
    },
    async (request) => {
      const law = lawOf(principalOf(request).tenant.country);
      const date = request.query.date ?? new Date().toISOString().slice(0, 10);
      const tables = await perDiems.tables.current();
      const version = tableVersionOn(tables, law, date);
      const only = request.query.countryCode;
      if (only !== undefined && !isCountryCode(only))
        throw new DomainError('VALIDATION_FAILED', 'Unknown country.', { countryCode: ['Must be an ISO 3166-1 alpha-2 code.'] });
      const rows =
        version === null
          ? []
          : [...version.rows.values()].filter(
              // The `*` row (countries not listed) is shown only where it applies: in a complete table.
              (r) => (r.countryCode === '*' ? version.complete : only === undefined || r.countryCode === only),
            );
      const domestic = domesticAmountsOn(law, date);
      return {
        law,
        date,
        domestic: domestic && {
          validFrom: domestic.validFrom,
          currency: domestic.currency,
          amounts: domestic.amounts.map(Number),
          source: domestic.source,
        },
        ...LAW_DESCRIPTIONS[law],
        foreign: {
          validFrom: version?.validFrom || null,
          validTo: version?.validTo ?? null,
          complete: version?.complete ?? false,
          rateTableRevision: tables.revisions[law] ?? null,
          rates: rows
            .sort((a, b) => a.countryCode.localeCompare(b.countryCode))
            .map((r) => ({ ...r, rate: Number(r.rate), validFrom: version!.validFrom || null })),
          ...(only !== undefined && { available: foreignRateOn(tables, law, only, date) !== null }),
        },
      };
    },
  );

  // The two operations the stateless calculator replaced (spec change of 2026-05-23).
  const removed = [
    { url: '/travel-entries/:id/per-diems/compute', params: IdParams },
    { url: '/per-diems/calculate-simple', params: undefined },
  ];
  for (const { url, params } of removed) {
    app.post(
      url,
      {
        config: { scope: 'read', anyBody: true },
        schema: {
          ...(params && { params }),
          tags,
          summary: `Removed: use ${CALCULATOR} (or from-itinerary to store the rows)`,
          deprecated: true,
          response: errorResponses('OPERATION_REMOVED'),
        },
      },
      async () => {
        throw new DomainError(
          'OPERATION_REMOVED',
          `This operation was removed on 2026-05-23. Use ${CALCULATOR} to compute per diems, and POST /api/v1/travel-entries/{id}/per-diems/from-itinerary to store them on an entry.`,
          undefined,
          { replacement: CALCULATOR },
        );
      },
    );
  }
};

/** A tenant's law is its country (tenants exist only in the four law countries). */
function lawOf(country: string): PerDiemLaw {
  if (!isPerDiemLaw(country)) throw new Error(`tenant country ${country} has no per-diem law`);
  return country;
}
