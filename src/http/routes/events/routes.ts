// The event feed: GET /api/v1/events (a page of the tenant's catalog events after a cursor, with an
// optional long poll) and GET /api/v1/events/{id} (one). Rows come from the event-feed read model
// (projections/event-feed), whose payload column holds the envelope bytes: they are written into
// the answer as they are, never parsed and serialized again, so they equal a delivery's body.
//
// Scope `read`: the feed carries what webhooks carry (personal-data-free summaries), and a partner
// that pulls instead of subscribing needs no `webhooks` scope (docs/decisions.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound, validationError } from '../../../domain/errors.js';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../webhooks/catalog/event-types.js';
import { FeedSignal } from '../../../application/event-feed/feed-signal.js';
import { EVENT_FEED_PROJECTION } from '../../../../projections/event-feed/projection.js';
import {
  isFeedEventPosition,
  readFeedEvent,
  readFeedPage,
  type FeedPageRow,
  type FeedPosition,
} from '../../../../projections/event-feed/queries.js';
import type { Db } from '../../../infra/database.js';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { WebhookEnvelope } from '../webhooks/schemas.js';
import { decodeCursor, encodeCursor, START } from './cursor.js';
import { EventFeedPage, EventFeedQuery, EventIdParams, FEED_LIMIT_DEFAULT } from './schemas.js';
import { comparePositions, type EventStore } from '../../../eventstore/port.js';

const tags = ['Events'];
const JSON_TYPE = 'application/json; charset=utf-8';

function parseTypes(text: string | undefined): WebhookEventType[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(',').map((s) => s.trim());
  const unknown = items.filter((s) => !isWebhookEventType(s));
  if (unknown.length > 0 || items.length === 0) {
    throw validationError({
      types: unknown.map((s) => `Unknown event type ${JSON.stringify(s)}; allowed: ${WEBHOOK_EVENT_TYPES.join(', ')}.`),
    });
  }
  return [...new Set(items)] as WebhookEventType[];
}

/** `evt_<32 hex>` or a dashed GUID, to the stored dashed lowercase form. */
function guidOf(id: string): string {
  const hex = (id.startsWith('evt_') ? id.slice(4) : id.replaceAll('-', '')).toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether a cursor names a position past the store's last event. No cursor this service issued
 * does: one kept across a restore of the database from a backup would, and a poll from it would
 * skip every event written since the restore up to that position, quietly. Asked only of an empty
 * page, where such a cursor ends up.
 */
async function isPastTheLog(store: EventStore, after: FeedPosition): Promise<boolean> {
  const cursor = { commit: BigInt(after.commit), prepare: BigInt(after.prepare) };
  const head = (await store.headPosition()) ?? { commit: 0n, prepare: 0n };
  return comparePositions(cursor, head) > 0;
}

/**
 * A sealed cursor is one this deployment issued; a plain one (before session 25) only where it names
 * the start or one of the tenant's own events, all an issued one ever named (events/cursor.ts).
 */
async function wasIssued(db: Db, tenantId: string, cursor: { position: FeedPosition; sealed: boolean }): Promise<boolean> {
  const p = cursor.position;
  return cursor.sealed || (p.commit === START.commit && p.prepare === START.prepare) || isFeedEventPosition(db, tenantId, p);
}

/** The page as JSON text with each envelope's stored bytes spliced in unchanged. */
const pageBody = (rows: readonly FeedPageRow[], nextCursor: string): string =>
  `{"items":[${rows.map((r) => r.payload).join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`;

export const eventFeedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, store } = app.deps;
  // One per API process (this plugin is registered once): the long polls' shared wake-up.
  const signal = new FeedSignal({
    db,
    projection: EVENT_FEED_PROJECTION,
    connectionString: config.databaseUrl,
    onError: (err) => app.log.warn({ err }, 'event feed wake-up: listener trouble, polling meanwhile'),
  });
  app.addHook('preClose', async () => signal.close());

  app.get(
    '/events',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'The catalog events of the tenant after a cursor, in commit order, as the envelopes webhooks send; `wait` long-polls',
        querystring: EventFeedQuery,
        response: { 200: EventFeedPage, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const q = request.query;
      const types = parseTypes(q.types);
      const decoded = q.after === undefined ? undefined : decodeCursor(app.deps.cursors, q.after, tenantId);
      const after = decoded?.position;
      if (q.after !== undefined && (decoded === undefined || !(await wasIssued(db, tenantId, decoded)))) {
        throw validationError({
          after: ['Not a cursor of this feed: pass a nextCursor as it was given, or leave it out to start at the beginning.'],
        });
      }
      const limit = q.limit ?? FEED_LIMIT_DEFAULT;
      const deadline = Date.now() + (q.wait ?? 0) * 1000;
      let gone = false;
      let checkedAfter = false;
      reply.raw.once('close', () => (gone = true));
      for (;;) {
        // Armed before the read: a commit between the read and the sleep still wakes this poll.
        const remaining = deadline - Date.now();
        const armed = remaining > 0 && !gone ? signal.arm(tenantId, remaining) : undefined;
        const rows = await readFeedPage(db, tenantId, { after, types, limit });
        if (rows.length === 0 && after !== undefined && !checkedAfter) {
          checkedAfter = true;
          if (await isPastTheLog(store, after)) {
            armed?.cancel();
            throw validationError({
              after: [
                'Past the end of the feed: no event has this position yet. Was the cursor kept across a restore of the service? ' +
                  'Start again from an earlier cursor you stored, or leave it out to start at the beginning.',
              ],
            });
          }
        }
        if (rows.length > 0 || armed === undefined) {
          armed?.cancel();
          const last = rows[rows.length - 1];
          const next = last ? encodeCursor(app.deps.cursors, last, tenantId) : (q.after ?? encodeCursor(app.deps.cursors, START, tenantId));
          return reply.type(JSON_TYPE).send(pageBody(rows, next));
        }
        const cancelOnClose = (): void => armed.cancel();
        reply.raw.once('close', cancelOnClose);
        await armed.woken;
        reply.raw.off('close', cancelOnClose);
      }
    },
  );

  app.get(
    '/events/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'One catalog event by its envelope id (or the Service-Event-Id GUID): the envelope webhooks send',
        params: EventIdParams,
        response: { 200: ref(WebhookEnvelope), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const payload = await readFeedEvent(db, principalOf(request).tenantId, guidOf(request.params.id));
      if (payload === undefined) throw notFound('Event');
      return reply.type(JSON_TYPE).send(payload);
    },
  );
};
