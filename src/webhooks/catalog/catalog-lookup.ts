// The catalog's lookups over a list of webhook sources: which categories it reads, which source folds
// a stream, which catalog type a domain event becomes. mapping.ts applies it to the registered
// features; the event feed's projection (projections/event-feed) applies it to the same list handed
// in by the registry, since importing mapping.ts from a feature module would be an import cycle.
import type { WebhookSource } from '../../features/feature.js';
import type { WebhookEventType } from './event-types.js';

export interface CatalogLookup {
  /** Stream categories the catalog reads (the part of the stream id before the first '-'). */
  readonly categories: readonly string[];
  /** The feature that sends webhooks for a stream category, or undefined when the category has none. */
  sourceOf(category: string): WebhookSource | undefined;
  /** The catalog event a domain event produces, or undefined when it produces none. */
  typeOf(domainEventType: string): WebhookEventType | undefined;
}

export function catalogLookup(sources: readonly WebhookSource[]): CatalogLookup {
  const byCategory = new Map<string, WebhookSource>(sources.map((s) => [s.category, s]));
  return {
    categories: sources.map((s) => s.category),
    sourceOf: (category) => byCategory.get(category),
    typeOf(domainEventType) {
      for (const source of sources) {
        const type = source.catalogTypeOf(domainEventType);
        if (type) return type;
      }
      return undefined;
    },
  };
}
