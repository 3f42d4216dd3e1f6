// The delivery log of a subscription, manual retry of one delivery, and recover of a window
// (beyond the spec). A delivery is looked up under its subscription and the caller's tenant, so a
// delivery of another subscription (or tenant) is a 404.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { conflict, DomainError, notFound, type FieldErrors } from '../../../domain/errors.js';
import { deliverOnce } from '../../../webhooks/delivery/deliver.js';
import { getDelivery, listDeliveries, listDeliveriesAfter } from '../../../webhooks/delivery/log.js';
import { claimForManualRetry, RECOVER_CAP, recoverDeliveries } from '../../../webhooks/delivery/requeue.js';
import { leaseMsFor } from '../../../webhooks/delivery/dispatcher.js';
import { getSubscriptionRow } from '../../../webhooks/subscriptions/store.js';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses, IdParams } from '../../schemas/common.js';
import { listResponse, pagingOf } from '../../cursor.js';
import { DeliveryListQuery, DeliveryParams, RecoverBody, RecoverResult, WebhookDeliveryPage } from './schemas.js';

const tags = ['Webhooks'];

export const webhookDeliveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.deps;
  const subscriptionOf = async (tenantId: string, id: string) => {
    const row = await getSubscriptionRow(db, tenantId, id);
    if (!row) throw notFound('Webhook subscription');
    return row;
  };

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        summary: 'List the deliveries of a subscription, newest first',
        params: IdParams,
        querystring: DeliveryListQuery,
        response: { 200: WebhookDeliveryPage, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const tenantId = principalOf(request).tenantId;
      await subscriptionOf(tenantId, request.params.id);
      const q = request.query;
      const paging = pagingOf(`webhooks/${request.params.id}/deliveries`, request);
      const filters = { pageSize: paging.pageSize, status: q.status, eventType: q.eventType as string | undefined };
      const start = paging.request.start;
      const r =
        'after' in start
          ? await listDeliveriesAfter(db, tenantId, request.params.id, start.after, filters)
          : await listDeliveries(db, tenantId, request.params.id, { ...filters, page: paging.page ?? 1 });
      return listResponse(paging, r.items, r);
    },
  );

  app.get(
    '/webhooks/:id/deliveries/:deliveryId',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        summary: 'Read one delivery: the exact signed payload, the last response body (2 KB) and every attempt',
        params: DeliveryParams,
        response: { 200: Type.Ref('WebhookDeliveryDetail'), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const tenantId = principalOf(request).tenantId;
      await subscriptionOf(tenantId, request.params.id);
      const delivery = await getDelivery(db, tenantId, request.params.id, request.params.deliveryId);
      if (!delivery) throw notFound('Delivery');
      return delivery;
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        summary: 'Retry a Failed or Exhausted delivery now: one attempt, same event id and bytes, fresh signature; answers with the result',
        params: DeliveryParams,
        response: { 200: Type.Ref('WebhookDeliveryDetail'), ...errorResponses('NOT_FOUND', 'DELIVERY_NOT_RETRYABLE') },
      },
    },
    async (request) => {
      const tenantId = principalOf(request).tenantId;
      const ids = { tenantId, subscriptionId: request.params.id, deliveryId: request.params.deliveryId };
      await subscriptionOf(tenantId, ids.subscriptionId);
      const before = await getDelivery(db, tenantId, ids.subscriptionId, ids.deliveryId);
      if (!before) throw notFound('Delivery');
      const now = new Date();
      const claimed = await claimForManualRetry(db, ids, now, new Date(now.getTime() + leaseMsFor(config.webhookTimeoutMs)));
      if (!claimed) {
        throw conflict(
          'DELIVERY_NOT_RETRYABLE',
          before.status === 'Failed' || before.status === 'Exhausted'
            ? 'A retry of this delivery is already running.'
            : `Only Failed or Exhausted deliveries can be retried; this one is ${before.status}.`,
          { currentStatus: before.status },
        );
      }
      await deliverOnce({ ...app.deps, transport: app.deps.delivery.transport, logger: request.log }, claimed, { manual: true });
      return (await getDelivery(db, tenantId, ids.subscriptionId, ids.deliveryId))!;
    },
  );

  app.post(
    '/webhooks/:id/recover',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        summary: `Re-queue every Failed or Exhausted delivery created in [since, until) for one more attempt each (at most ${RECOVER_CAP} per call)`,
        params: IdParams,
        body: RecoverBody,
        response: { 202: RecoverResult, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      await subscriptionOf(tenantId, request.params.id);
      const now = new Date();
      const since = new Date(request.body.since);
      const until = request.body.until === undefined ? now : new Date(request.body.until);
      // Keyed by the field the client sent wrong: `until` when it sent one, else `since` (in the future).
      if (until <= since) {
        const errors: FieldErrors =
          request.body.until === undefined
            ? { since: ['Must be earlier than now (until defaults to now).'] }
            : { until: ['Must be later than since.'] };
        throw new DomainError('VALIDATION_FAILED', 'The window is empty.', errors);
      }
      const result = await recoverDeliveries(db, { tenantId, subscriptionId: request.params.id }, since, until, now);
      if (result.requeued > 0) app.deps.delivery.wakeup.wake();
      reply.code(202);
      return result;
    },
  );
};
