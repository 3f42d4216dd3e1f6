// The one mapping from domain events to the webhook catalog, assembled from the features that
// declare webhooks (src/features/index.ts). Nothing here names a feature: a feature with webhooks
// brings its stream category, its decider and its catalog mapping with it.
import { webhookSources } from '../../features/index.js';
import type { WebhookSource } from '../../features/feature.js';
import type { WebhookEventType } from './event-types.js';
import { catalogLookup } from './catalog-lookup.js';

export { WEBHOOK_EVENT_TYPES, isWebhookEventType, type WebhookEventType } from './event-types.js';

const lookup = catalogLookup(webhookSources);

/** Stream categories the catalog projector reads (the part of the stream id before the first '-'). */
export const CATALOG_CATEGORIES: readonly string[] = lookup.categories;

/** The feature that sends webhooks for a stream category, or undefined when the category has none. */
export const webhookSourceOf = (category: string): WebhookSource | undefined => lookup.sourceOf(category);

/** The catalog event a domain event produces, or undefined when it produces none. */
export const catalogTypeOf = (domainEventType: string): WebhookEventType | undefined => lookup.typeOf(domainEventType);
