// Webhook subscription, delivery and event schemas. The named ones are registered on the root
// (routes/index.ts, sharedSchemas) and so appear as OpenAPI components, including the envelope and
// its data shapes, which no route returns but partners receive.
import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENT_TYPES } from '../../../webhooks/catalog/event-types.js';
import { MAX_WEBHOOK_URL_LENGTH } from '../../../webhooks/subscriptions/url-policy.js';
import { PageQuery, StringEnum, Uuid } from '../../schemas/common.js';
import { CursorQuery, listPageOf } from '../../cursor.js';
import { ref } from '../../schemas/ref.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);
const Instant = Type.String({ format: 'date-time' });

export const WebhookEventType = StringEnum(WEBHOOK_EVENT_TYPES, {
  $id: 'WebhookEventType',
  description: 'The webhook event catalog, complete for a release.',
});
export const DELIVERY_STATUSES = ['Pending', 'Succeeded', 'Failed', 'Exhausted'] as const;
export const DeliveryStatus = StringEnum(DELIVERY_STATUSES, {
  description:
    'Pending until an attempt ends it: Succeeded (2xx), Failed (3xx, 4xx other than 408/429, or a URL refused by the policy), Exhausted (the ninth attempt failed retryably).',
});
const FailureClass = StringEnum(['dns', 'connect', 'tls', 'timeout', 'http_4xx', 'http_5xx', 'redirect', 'blocked_address'] as const);

export const WebhookSubscriptionInput = Type.Object(
  {
    url: Type.String({
      maxLength: MAX_WEBHOOK_URL_LENGTH,
      description: 'An https:// URL whose host is, and resolves only to, public addresses.',
    }),
    eventTypes: Type.Array(ref(WebhookEventType), {
      minItems: 1,
      uniqueItems: true,
      description: 'Non-empty, no duplicates, items from WebhookEventType.',
    }),
  },
  { additionalProperties: false, $id: 'WebhookSubscriptionInput' },
);

const subscriptionFields = {
  id: Uuid,
  url: Type.String(),
  eventTypes: Type.Array(ref(WebhookEventType)),
  isActive: Type.Boolean({ description: 'False once auto-disabled after 10 consecutive Exhausted deliveries; there is no reactivation.' }),
  disabledAt: Nullable(Instant),
  disabledReason: Nullable(Type.String()),
  createdAt: Instant,
  previousSecretExpiresAt: Nullable(
    Type.String({ format: 'date-time', description: 'After a rotation: until then the previous secret signs too.' }),
  ),
};

export const WebhookSubscription = Type.Object(subscriptionFields, {
  $id: 'WebhookSubscription',
  description: 'A subscription; never carries the signing secret.',
});

export const WebhookSubscriptionWithSecret = Type.Object(
  {
    ...subscriptionFields,
    signingSecret: Type.String({ description: '`whsec_` + 43 base64url characters. Returned by this response only; store it now.' }),
  },
  { $id: 'WebhookSubscriptionWithSecret' },
);

export const WebhookSubscriptionPage = listPageOf(Type.Ref('WebhookSubscription'), 'WebhookSubscriptionPage');

const deliveryFields = {
  deliveryId: Uuid,
  eventId: Type.String({
    pattern: '^evt_[0-9a-f]{32}$',
    description: 'The envelope id; Service-Event-Id carries the same GUID in dashed form.',
  }),
  eventType: ref(WebhookEventType),
  status: DeliveryStatus,
  attemptCount: Type.Integer(),
  createdAt: Instant,
  lastAttemptAt: Nullable(Instant),
  nextAttemptAt: Nullable(Type.String({ format: 'date-time', description: 'Pending only: when the next attempt is due.' })),
  lastResponseStatus: Nullable(Type.Integer()),
};

export const WebhookDelivery = Type.Object(deliveryFields, { $id: 'WebhookDelivery' });
export const WebhookDeliveryPage = listPageOf(Type.Ref('WebhookDelivery'), 'WebhookDeliveryPage');

const Attempt = Type.Object({
  attemptNumber: Type.Integer(),
  attemptedAt: Instant,
  manual: Type.Boolean({ description: 'Made by the retry operation.' }),
  statusCode: Nullable(Type.Integer()),
  latencyMs: Type.Integer(),
  failureClass: Nullable(FailureClass),
  errorMessage: Type.String(),
  responseBody: Nullable(Type.String({ description: "The partner's response body, at most 2 KB of UTF-8." })),
  responseTruncated: Type.Boolean(),
});

export const WebhookDeliveryDetail = Type.Object(
  {
    ...deliveryFields,
    payload: Type.String({ description: 'The exact body bytes that are signed and sent on every attempt (UTF-8 JSON).' }),
    lastResponseBody: Nullable(Type.String({ description: 'At most 2 KB, cut on a character boundary.' })),
    lastFailureClass: Nullable(FailureClass),
    attempts: Type.Array(Attempt),
  },
  { $id: 'WebhookDeliveryDetail' },
);

export const DeliveryParams = Type.Object({ id: Uuid, deliveryId: Uuid }, { additionalProperties: false });

export const DeliveryListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    status: Type.Optional(DeliveryStatus),
    eventType: Type.Optional(ref(WebhookEventType)),
  },
  { additionalProperties: false },
);

export const RecoverBody = Type.Object(
  {
    since: Type.String({ format: 'date-time', description: 'Deliveries created at or after this instant.' }),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'Deliveries created before this instant; default now.' })),
  },
  { additionalProperties: false },
);

export const RecoverResult = Type.Object({
  requeued: Type.Integer(),
  more: Type.Boolean({ description: 'The cap stopped this call; call again with `since` = `resumeFrom`.' }),
  resumeFrom: Nullable(Instant),
});

// What partners receive. data carries the resource as of the event plus `resourceVersion`.
export const TravelEntryWebhookDto = Type.Object(
  {
    id: Uuid,
    entryNumber: Type.String(),
    employeeId: Uuid,
    departureDate: Type.String({ format: 'date' }),
    returnDate: Type.String({ format: 'date' }),
    status: Type.Integer({ description: 'Draft 0, PendingApproval 1, Approved 2, Rejected 3, Cancelled 4, ChangesRequested 5.' }),
    advancePayment: Type.Number(),
    currencyCode: Type.String(),
    advancePaymentInBaseCurrency: Type.Number(),
    createdAt: Instant,
    editedAt: Instant,
    isLocked: Type.Boolean(),
    isPaidOut: Type.Boolean(),
    isDeleted: Type.Boolean({
      description: 'True in the entry.updated of a deleted (never-submitted) entry; the entry answers 404 from then on.',
    }),
    resourceVersion: Type.Integer({
      description: "The entry's stream revision after the event; drop an event whose version is below one already processed.",
    }),
  },
  { $id: 'TravelEntryWebhookDto' },
);

export const EmployeeWebhookDto = Type.Object(
  {
    id: Uuid,
    firstName: Type.String(),
    lastName: Type.String(),
    position: Nullable(Type.String()),
    departmentId: Nullable(Type.String()),
    status: Type.String({ description: 'Active or Inactive.' }),
    isAccountOwner: Type.Boolean(),
    isArchived: Type.Boolean(),
    createdAt: Instant,
    editedAt: Instant,
    resourceVersion: Type.Integer({ description: "The employee's stream revision after the event." }),
  },
  { $id: 'EmployeeWebhookDto' },
);

export const WebhookEnvelope = Type.Object(
  {
    id: Type.String({ pattern: '^evt_[0-9a-f]{32}$' }),
    type: ref(WebhookEventType),
    createdAt: Type.String({ format: 'date-time', description: 'When the event was raised, not when it was delivered.' }),
    data: Type.Union([Type.Ref('TravelEntryWebhookDto'), Type.Ref('EmployeeWebhookDto')], {
      description: 'entry.* events: TravelEntryWebhookDto; employee.* events: EmployeeWebhookDto.',
    }),
  },
  { $id: 'WebhookEnvelope' },
);

/** Registered on the root, in dependency order. */
export const webhookSchemas = [
  WebhookEventType,
  WebhookSubscriptionInput,
  WebhookSubscription,
  WebhookSubscriptionWithSecret,
  WebhookDelivery,
  WebhookDeliveryDetail,
  TravelEntryWebhookDto,
  EmployeeWebhookDto,
  WebhookEnvelope,
];
