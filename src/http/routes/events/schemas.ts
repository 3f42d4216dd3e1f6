// Schemas of the event feed. A page's items are WebhookEnvelope (the named schema partners already
// verify webhooks with); the bytes of each are those a delivery of the event carries.
import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENT_TYPES } from '../../../webhooks/catalog/event-types.js';
import { ref } from '../../schemas/ref.js';
import { WebhookEnvelope } from '../webhooks/schemas.js';

export const FEED_LIMIT_DEFAULT = 100;
export const FEED_LIMIT_MAX = 1000;
export const FEED_WAIT_MAX = 30;

export const EventFeedQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'A `nextCursor` from an earlier page: events after it. Absent: from the first event of the tenant.',
        examples: ['ZjEuNzQyLjE4'],
      }),
    ),
    types: Type.Optional(
      Type.String({
        maxLength: 500,
        description: `Comma-separated catalog types to keep (${WEBHOOK_EVENT_TYPES.join(', ')}). Absent: every type.`,
        examples: ['entry.approved,entry.paidout'],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: FEED_LIMIT_MAX,
        default: FEED_LIMIT_DEFAULT,
        description: `Events per page, 1 to ${FEED_LIMIT_MAX} (default ${FEED_LIMIT_DEFAULT}).`,
      }),
    ),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: FEED_WAIT_MAX,
        default: 0,
        description: `Long poll: when no event is there yet, wait up to this many seconds (at most ${FEED_WAIT_MAX}) and answer as soon as one arrives; an empty page with the same cursor when the wait ends.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const EventFeedPage = Type.Object(
  {
    items: Type.Array(ref(WebhookEnvelope), {
      description: 'In commit order; each is byte for byte the body a webhook delivery of the event carries.',
    }),
    nextCursor: Type.String({ description: 'Pass as `after` for the next page. Unchanged when the page is empty: poll again with it.' }),
  },
  { $id: 'EventFeedPage' },
);

export const EventIdParams = Type.Object(
  {
    id: Type.String({
      pattern: '^(evt_[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
      description: 'The envelope id (`evt_` + 32 hex) or the same GUID as sent in Service-Event-Id.',
      examples: ['evt_5f0c6f3e0b8d5e4c9a1b2c3d4e5f6a7b'],
    }),
  },
  { additionalProperties: false },
);

export const eventFeedSchemas = [EventFeedPage];
