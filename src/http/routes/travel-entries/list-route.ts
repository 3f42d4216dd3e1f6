// GET /travel-entries (issue 13): the page is sent as text spliced from the rows' stored JSON
// (projections/travel-entries/list-json.ts), so no stored document is parsed into objects and no
// response is serialised per request. The response schema stays declared for the OpenAPI document;
// a string sent with a JSON content type passes Fastify's serializer untouched, so the bytes are
// exactly the stored ones, which are what GET of each entry answers (tests hold the two equal).
// Pages are kept by the API process's read cache like single reads (read-cache.ts readPage): as
// fresh as the database, dropped by any change the travel-entries projection announces.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { validationError } from '../../../domain/errors.js';
import { TRAVEL_ENTRY_CATEGORY } from '../../../domain/travel-entries/index.js';
import { listTravelEntryJson } from '../../../../projections/travel-entries/queries.js';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../schemas/common.js';
import { encodeCursor, pagingOf, syncCursorOf, type ListResult, type Paging } from '../../cursor.js';
import { ref } from '../../schemas/ref.js';
import { TravelEntryListQuery, TravelEntryPage } from './schemas.js';
import type { CachedRead } from '../../read-cache.js';
import { PROJECTION } from './entry-command.js';

/** The page envelope around the items' JSON texts, members in the order of listPageOf (cursor.ts). */
export function pageText(paging: Paging, items: readonly string[], result: ListResult): string {
  const numbered = paging.page !== undefined;
  return (
    `{"items":[${items.join(',')}]` +
    (numbered ? `,"page":${paging.page}` : '') +
    `,"pageSize":${paging.pageSize}` +
    (numbered && result.total !== undefined ? `,"total":${result.total}` : '') +
    `,"nextCursor":${result.next ? JSON.stringify(encodeCursor(paging, result.next)) : 'null'}` +
    (paging.sync ? `,"syncCursor":${JSON.stringify(syncCursorOf(paging, result))}` : '') +
    '}'
  );
}

export const travelEntryListRoute: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  app.get(
    '/travel-entries',
    {
      config: { scope: 'read', personalData: { resourceType: TRAVEL_ENTRY_CATEGORY } },
      schema: {
        tags: ['Travel entries'],
        summary: 'List travel entries',
        querystring: TravelEntryListQuery,
        response: { 200: ref(TravelEntryPage), ...errorResponses() },
      },
    },
    async (request, reply) => {
      const q = request.query;
      if (q.exportStatus !== undefined && q.exportedTo === undefined) {
        throw validationError({ exportStatus: ['Needs exportedTo: the system whose export status to filter on.'] });
      }
      const paging = pagingOf('travel-entries', request);
      const { tenantId } = principalOf(request);
      const load = async (): Promise<CachedRead> => {
        const r = await listTravelEntryJson(db, tenantId, { ...q, status: q.status as string | undefined, page: paging.request }, (err) =>
          request.log.warn({ err }, 'storing list texts failed; the next list read makes them again'),
        );
        return { tenantId, etag: '', body: Buffer.from(pageText(paging, r.items, r)) };
      };
      // The list and its filters (the fingerprint) and where the page starts, for this tenant.
      const key = `${tenantId}|${paging.fingerprint}|${paging.pageSize}|${JSON.stringify(paging.request.start)}`;
      const page = app.deps.readCache ? await app.deps.readCache.readPage(PROJECTION, tenantId, key, load) : await load();
      return reply.type('application/json; charset=utf-8').send(page!.body);
    },
  );
};
