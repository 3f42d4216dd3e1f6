// The event feed (issue 11): the tenant's catalog events, as the envelopes webhooks send, paged by
// cursor or long-polled (GET /api/v1/events). Its read model folds the streams of the features that
// declare webhooks; the registry hands those in as a function, since this module is in its list.
import { eventFeedProjection } from '../../projections/event-feed/projection.js';
import { eventFeedRoutes } from '../http/routes/events/routes.js';
import { eventFeedSchemas } from '../http/routes/events/schemas.js';
import type { FeatureModule, WebhookSource } from './feature.js';

export const eventFeedFeature = (webhookSources: () => readonly WebhookSource[]): FeatureModule => ({
  name: 'event-feed',
  projections: [eventFeedProjection(webhookSources)],
  routes: [eventFeedRoutes],
  schemas: eventFeedSchemas,
});
