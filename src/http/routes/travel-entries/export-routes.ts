// Export write-back (issue 11): an ERP connector acknowledges that it posted the entry (or failed
// to), so "approved and not yet posted to me" is one list call (exportedTo, exportStatus). Recorded
// as TravelEntryExportRecorded through the one write path; allowed on locked entries (it changes
// no content) and reported to webhooks as entry.updated. Idempotency-Key and If-Match as on every
// entry command.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EDIT_ERRORS, errorResponses, IdParams } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { runEntryCommand } from './entry-command.js';
import { ExportBody, TravelEntry } from './schemas.js';

export const travelEntryExportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/travel-entries/:id/exports',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['Travel entries'],
        summary: 'Record the entry’s export to an external system (posted or failed): shown in exports, filtered by exportedTo',
        description:
          'The last report per system wins. Allowed in every status, locked entries included: it changes no content and leaves ' +
          'editedAt alone (the entry still reaches an updatedSince sync). Webhooks: entry.updated.',
        params: IdParams,
        body: ref(ExportBody),
        response: { 200: ref(TravelEntry), ...errorResponses(...EDIT_ERRORS) },
      },
    },
    async (request, reply) =>
      runEntryCommand(app, request, reply, request.params.id, async () => ({
        type: 'RecordTravelEntryExport',
        data: { entryId: request.params.id, ...request.body },
      })),
  );
};
