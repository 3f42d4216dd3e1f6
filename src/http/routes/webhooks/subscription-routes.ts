// Webhook subscriptions: create (the signing secret is shown once), list, read, delete, and rotate
// the secret (beyond the spec: both secrets sign for 24 hours). Scope `webhooks`; every query is
// scoped to the caller's tenant, so another tenant's subscription is a 404.
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../../domain/errors.js';
import { generateSigningSecret } from '../../../webhooks/delivery/signature.js';
import { ROTATION_GRACE_HOURS } from '../../../webhooks/subscriptions/signing-secrets.js';
import {
  deleteSubscription,
  findByCreateKey,
  getSubscriptionRow,
  insertSubscription,
  listSubscriptionRows,
  rotateSubscriptionSecret,
  toSubscription,
  type SubscriptionRow,
} from '../../../webhooks/subscriptions/store.js';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses, IdParams, PageQuery } from '../../schemas/common.js';
import { CursorQuery, listResponse, pagingOf } from '../../cursor.js';
import { validateSubscriptionInput } from './create-validation.js';
import {
  holdSharedKey,
  idempotencyKeyOf,
  keyReused,
  markReplayed,
  releaseHeldKeyOnServerError,
  REPLAY_WINDOW_HOURS,
  replayUnavailable,
  takeIdempotencyKey,
} from './own-idempotency.js';
import { WebhookSubscriptionPage } from './schemas.js';
import { requestFingerprint, sameRequest } from '../../request-fingerprint.js';

const tags = ['Webhooks'];
const ListQuery = Type.Object({ ...PageQuery, ...CursorQuery }, { additionalProperties: false });

export const webhookSubscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, secrets, config } = app.deps;
  const withSecret = (row: SubscriptionRow) => ({ ...toSubscription(row), signingSecret: secrets.open(row.secret_sealed) });

  app.post(
    '/webhooks',
    {
      config: { scope: 'webhooks' },
      // The handler turns url/eventTypes schema failures into the webhook codes (create-validation.ts).
      attachValidation: true,
      onRequest: takeIdempotencyKey,
      onResponse: releaseHeldKeyOnServerError,
      schema: {
        tags,
        summary: 'Create a webhook subscription; the response carries the signing secret, once',
        body: Type.Ref('WebhookSubscriptionInput'),
        response: {
          201: Type.Ref('WebhookSubscriptionWithSecret'),
          ...errorResponses(
            'WEBHOOK_URL_INVALID',
            'WEBHOOK_URL_NOT_HTTPS',
            'WEBHOOK_URL_FORBIDDEN_ADDRESS',
            'WEBHOOK_URL_UNRESOLVABLE',
            'WEBHOOK_EVENT_TYPES_INVALID',
            'LIMIT_REACHED',
            'IDEMPOTENCY_KEY_REUSED',
            'IDEMPOTENCY_REPLAY_UNAVAILABLE',
          ),
        }, // 409: LIMIT_REACHED, or an Idempotency-Key replay that cannot be made
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const key = idempotencyKeyOf(request);
      const hash = key === undefined ? undefined : requestFingerprint(request);
      if (key !== undefined) await holdSharedKey(db, tenantId, key, request, hash!);
      const replay = async (): Promise<ReturnType<typeof withSecret> | undefined> => {
        const prior = key === undefined ? undefined : await findByCreateKey(db, tenantId, key, REPLAY_WINDOW_HOURS);
        if (!prior) return undefined;
        if (!sameRequest(request, hash!, prior.create_request_hash)) throw keyReused();
        if (prior.deleted || prior.rotated_at !== null) throw replayUnavailable();
        markReplayed(reply);
        reply.code(201).header('Location', `/api/v1/webhooks/${prior.id}`);
        return withSecret(prior);
      };
      const replayed = await replay();
      if (replayed) return replayed;

      const input = await validateSubscriptionInput(request, { allowedPrivateCidrs: config.webhookAllowedPrivateCidrs });
      const signingSecret = generateSigningSecret();
      const row = await insertSubscription(db, {
        id: randomUUID(),
        tenantId,
        url: input.url,
        eventTypes: input.eventTypes,
        secretSealed: secrets.seal(signingSecret),
        idempotencyKey: key,
        requestHash: hash,
        maxPerTenant: config.webhookMaxSubscriptionsPerTenant,
      });
      if (!row) {
        // A concurrent request with the same key won the insert.
        const twin = await replay();
        if (twin) return twin;
        throw replayUnavailable();
      }
      reply.code(201).header('Location', `/api/v1/webhooks/${row.id}`);
      return { ...toSubscription(row), signingSecret };
    },
  );

  app.get(
    '/webhooks',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        summary: 'List webhook subscriptions (never the secret)',
        querystring: ListQuery,
        response: { 200: WebhookSubscriptionPage, ...errorResponses() },
      },
    },
    async (request) => {
      const paging = pagingOf('webhooks', request);
      const start = paging.request.start;
      const tenantId = principalOf(request).tenantId;
      const r = await listSubscriptionRows(db, tenantId, paging.page ?? 1, paging.pageSize, 'after' in start ? start.after : undefined);
      return listResponse(
        paging,
        r.rows.map((row) => toSubscription(row)),
        r,
      );
    },
  );

  app.get(
    '/webhooks/:id',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        summary: 'Read a webhook subscription (never the secret)',
        params: IdParams,
        response: { 200: Type.Ref('WebhookSubscription'), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const row = await getSubscriptionRow(db, principalOf(request).tenantId, request.params.id);
      if (!row) throw notFound('Webhook subscription');
      return toSubscription(row);
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { scope: 'webhooks' },
      schema: {
        tags,
        summary: 'Delete a webhook subscription; its pending deliveries are cancelled',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      if (!(await deleteSubscription(db, principalOf(request).tenantId, request.params.id))) throw notFound('Webhook subscription');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { scope: 'webhooks' },
      onRequest: takeIdempotencyKey,
      onResponse: releaseHeldKeyOnServerError,
      schema: {
        tags,
        summary: `Rotate the signing secret; the new one is returned once, and both sign every delivery for ${ROTATION_GRACE_HOURS} hours`,
        params: IdParams,
        response: { 200: Type.Ref('WebhookSubscriptionWithSecret'), ...errorResponses('NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED') },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const key = idempotencyKeyOf(request);
      if (key !== undefined) await holdSharedKey(db, tenantId, key, request, requestFingerprint(request));
      const current = await getSubscriptionRow(db, tenantId, request.params.id);
      if (!current) throw notFound('Webhook subscription');
      const windowStart = Date.now() - REPLAY_WINDOW_HOURS * 3600_000;
      if (
        key !== undefined &&
        current.rotation_idempotency_key === key &&
        current.rotated_at !== null &&
        new Date(current.rotated_at).getTime() > windowStart
      ) {
        markReplayed(reply);
        return withSecret(current); // this key made the latest rotation, so the current secret is the one it returned
      }
      const signingSecret = generateSigningSecret();
      const row = await rotateSubscriptionSecret(db, tenantId, request.params.id, secrets.seal(signingSecret), ROTATION_GRACE_HOURS, key);
      if (!row) throw notFound('Webhook subscription');
      return { ...toSubscription(row), signingSecret };
    },
  );
};
