// from-itinerary: the entry's per diems rebuilt from an itinerary in one call. The server re-runs
// its engine over the stops (submitted amounts are never part of it), applies the per-row meals,
// stores true UTC instants and replaces every per diem atomically in one record (entry.updated).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { commandContext } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, IdParams } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { PerDiemItinerary } from '../per-diems/schemas.js';
import { runEntryWrite } from './entry-command.js';
import { TravelEntry } from './schemas.js';

export const travelEntryItineraryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/travel-entries/:id/per-diems/from-itinerary',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['Travel entries', 'Per diems'],
        summary: "Replace the entry's per diems with the statutory engine's rows for an itinerary (atomic)",
        description:
          'The same rows as the calculator, with the entry’s advance payment date as the CZ exchange-rate date when the entry ' +
          'has an advance, else the day the trip starts (advancePaymentDate in the body is ignored). Meals are keyed by a row’s (countryCode, departureTime). Overrides of the replaced rows are not kept.',
        params: IdParams,
        body: ref(PerDiemItinerary),
        response: {
          200: ref(TravelEntry),
          ...errorResponses(...EDIT_ERRORS, 'ENTRY_LOCKED', 'PER_DIEM_RATE_UNAVAILABLE', 'EXCHANGE_RATE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) =>
      runEntryWrite(
        app,
        request,
        reply,
        app.deps.travelEntries.perDiemsFromItinerary(commandContext(request), principalOf(request).tenant, request.params.id, request.body),
      ),
  );
};
