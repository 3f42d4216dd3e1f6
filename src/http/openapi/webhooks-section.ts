// The document's description of what we POST to partners: an OAS 3.1 `webhooks` entry per catalog
// event (its envelope and the delivery headers, src/webhooks/delivery/headers.ts), and the
// envelope as a union discriminated on `type`, so generators produce one type per event family.
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../webhooks/catalog/event-types.js';

type Json = Record<string, unknown>;

const FAMILIES = [
  { prefix: 'entry.', schema: 'TravelEntryWebhookEnvelope', data: 'TravelEntryWebhookDto', noun: 'travel entry' },
  { prefix: 'employee.', schema: 'EmployeeWebhookEnvelope', data: 'EmployeeWebhookDto', noun: 'employee' },
] as const;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

function familyOf(type: WebhookEventType): (typeof FAMILIES)[number] {
  const family = FAMILIES.find((f) => type.startsWith(f.prefix));
  if (!family) throw new Error(`No envelope family for webhook event ${type}`);
  return family;
}

/** Envelope schemas per family and the discriminated WebhookEnvelope (replacing the plain union). */
export function envelopeSchemas(): Record<string, Json> {
  const schemas: Record<string, Json> = {};
  for (const f of FAMILIES) {
    schemas[f.schema] = {
      type: 'object',
      description: `The envelope of a ${f.noun} event: the summary of the ${f.noun} as of the event, without personal data.`,
      required: ['id', 'type', 'createdAt', 'data'],
      properties: {
        id: {
          type: 'string',
          pattern: '^evt_[0-9a-f]{32}$',
          description: 'The event id: the same on every attempt and in the event feed.',
        },
        type: { type: 'string', enum: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith(f.prefix)) },
        createdAt: { type: 'string', format: 'date-time', description: 'When the event was raised, not when it was delivered.' },
        data: ref(f.data),
      },
    };
  }
  schemas.WebhookEnvelope = {
    description: 'A webhook event as POSTed to a subscription and as listed by the event feed; `type` tells which envelope it is.',
    oneOf: FAMILIES.map((f) => ref(f.schema)),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((t) => [t, `#/components/schemas/${familyOf(t).schema}`])),
    },
  };
  return schemas;
}

const DELIVERY_HEADERS: readonly [string, string, Json][] = [
  ['Service-Event', 'The event type, as in the body.', { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] }],
  ['Service-Event-Id', 'The event GUID: dedupe on it (it is the envelope id without `evt_`, dashed).', { type: 'string', format: 'uuid' }],
  [
    'Service-Signature',
    '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, one v1 per active secret (two during a rotation). See docs/webhooks.md.',
    { type: 'string' },
  ],
  [
    'Service-Delivery-Id',
    'This delivery (one per subscription and event); attempts of a delivery share it.',
    { type: 'string', format: 'uuid' },
  ],
  ['User-Agent', 'Service-Webhook/1.0', { type: 'string' }],
];

/** The `webhooks` section: one POST per catalog event type. */
export function webhooksSection(): Record<string, Json> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const family = familyOf(type);
      return [
        type,
        {
          post: {
            operationId: `on${type
              .split(/[.]/)
              .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
              .join('')}`,
            summary: `The ${type} event`,
            description:
              `Sent to every active subscription listing \`${type}\`. Answer 2xx within 10 seconds. A timeout, a network ` +
              'error, 408, 429 or 5xx is retried over about 40 hours with the same id and body; a 3xx or another 4xx fails the ' +
              'delivery at once. Verify the signature before trusting the body.',
            tags: ['Webhooks'],
            security: [],
            parameters: DELIVERY_HEADERS.map(([name, description, schema]) => ({
              name,
              in: 'header',
              required: true,
              description,
              schema,
            })),
            requestBody: { required: true, content: { 'application/json': { schema: ref(family.schema) } } },
            responses: {
              '200': { description: 'Received (any 2xx status counts).' },
              '503': { description: 'Not now: retried later (so are 408, 429 and every 5xx).' },
            },
          },
        },
      ];
    }),
  );
}
