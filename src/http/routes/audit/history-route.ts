// The history route of one resource type, `GET /{resource}/{id}/history` (audit scope): the
// resource's events in order, paginated by page/pageSize or by the opaque cursor of the previous
// page (a revision: stable however the resource changes meanwhile, since history only grows).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { notFound, validationError } from '../../../domain/errors.js';
import { readHistory } from '../../../application/audit/history.js';
import { principalOf } from '../../plugins/auth.js';
import { jsonPageBytes } from '../../json-page-bytes.js';
import { errorResponses, IdParams, PAGE_SIZE_DEFAULT } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { AuditHistoryPage, HistoryQuery } from './schemas.js';

const CURSOR_PREFIX = 'rev:';

export const historyCursor = (revision: number): string => Buffer.from(`${CURSOR_PREFIX}${revision}`).toString('base64url');

/** The revision a cursor names, or a 400 keyed by `cursor`. */
function revisionOfCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^rev:(\d{1,10})$/.exec(text);
  const revision = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(revision))
    throw validationError({ cursor: ['Not a cursor of this history: send a nextCursor back as it came.'] });
  return revision;
}

export interface HistoryRouteOptions {
  /** `/travel-entries`. */
  path: string;
  /** 'Travel entry' (for the 404). */
  what: string;
  tags: string[];
  streamName: (id: string) => string;
  /** The access-log resource type: the events carry the resource's personal data. */
  resourceType: string;
}

export function historyRoutes(o: HistoryRouteOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      `${o.path}/:id/history`,
      {
        config: { scope: 'audit', personalData: { resourceType: o.resourceType } },
        schema: {
          tags: o.tags,
          summary: `Every recorded event of a ${o.what.toLowerCase()}, in order, with actor and hash-chain link (audit scope)`,
          description:
            'Paginated by page/pageSize, or by `cursor` (the previous page’s nextCursor). Each item carries the event’s hash, ' +
            'the previous hash and whether the link verifies (hashValid: null for events recorded before the chain existed). ' +
            'See docs/auditing.md.',
          params: IdParams,
          querystring: HistoryQuery,
          response: { 200: ref(AuditHistoryPage), ...errorResponses('NOT_FOUND') },
        },
      },
      async (request, reply) => {
        const { tenantId } = principalOf(request);
        const q = request.query;
        if (q.cursor !== undefined && q.page !== undefined && q.page !== 1) {
          throw validationError({ cursor: ['Send either cursor or page, not both.'] });
        }
        const pageSize = q.pageSize ?? PAGE_SIZE_DEFAULT;
        const page = q.page ?? 1;
        const from = q.cursor !== undefined ? revisionOfCursor(q.cursor) : (page - 1) * pageSize;
        const history = await readHistory(app.deps.store, app.deps.db, o.streamName(request.params.id), tenantId, {
          from,
          limit: pageSize,
        });
        if (!history) throw notFound(o.what);
        const body: Static<typeof AuditHistoryPage> = {
          items: history.items,
          page: Math.floor(from / pageSize) + 1,
          pageSize,
          total: history.total,
          nextCursor: history.nextRevision === undefined ? null : historyCursor(history.nextRevision),
        };
        // Native JSON.stringify of the page (its items have exactly the schema's fields), as bytes: a
        // page of 200 events is half a megabyte, which the schema's compiled serializer wrote at about
        // twice the cost (docs/benchmarks.md, session 8), and one string of it costs twice more to
        // measure and encode than its items encoded one by one (json-page-bytes.ts). The schema still
        // documents the answer.
        const { items, ...rest } = body;
        return reply.type('application/json; charset=utf-8').send(jsonPageBytes(items, rest));
      },
    );
  };
}
