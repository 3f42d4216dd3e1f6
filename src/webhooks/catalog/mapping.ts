// The one mapping from domain events to the webhook catalog, assembled from the features that
// declare webhooks (src/features/index.ts). Nothing here names a feature: a feature with webhooks
// brings its stream category, its decider and its catalog mapping with it.
import { webhookSources } from '../../features/index.js';
import type { WebhookSource } from '../../features/feature.js';
import type { WebhookEventType } from './event-types.js';

export { WEBHOOK_EVENT_TYPES, isWebhookEventType, type WebhookEventType } from './event-types.js';

/** Stream categories the catalog projector reads (the part of the stream id before the first '-'). */
export const CATALOG_CATEGORIES: readonly string[] = webhookSources.map((s) => s.category);

const sourceByCategory = new Map<string, WebhookSource>(webhookSources.map((s) => [s.category, s]));

/** The feature that sends webhooks for a stream category, or undefined when the category has none. */
export const webhookSourceOf = (category: string): WebhookSource | undefined => sourceByCategory.get(category);

/** The catalog event a domain event produces, or undefined when it produces none. */
export function catalogTypeOf(domainEventType: string): WebhookEventType | undefined {
  for (const source of webhookSources) {
    const type = source.catalogTypeOf(domainEventType);
    if (type) return type;
  }
  return undefined;
}
