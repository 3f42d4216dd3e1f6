// A feature module declares itself once: its event stream category and decider, its read-model
// projections, its partner routes and named schemas, and, where partners get webhooks for it, the
// mapping of its domain events into the catalog and the personal-data-free summary it sends.
// The registry (src/features/index.ts) lists the features; the route index, the projection index,
// the webhook catalog and the resource snapshots read from it, so no shared file hand-lists them.
import type { FastifyPluginAsync } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { Decider, DomainEvent } from '../domain/decider.js';
import type { Projection } from '../../projections/projection.js';
import type { WebhookEventType } from '../webhooks/catalog/event-types.js';

/** How a feature's streams become webhook events (only features partners get webhooks for). */
export interface WebhookSource<S = any, E extends DomainEvent = any> {
  /** The stream category (the part of the stream id before the first '-'), declared by the domain. */
  readonly category: string;
  /** Folds the stream up to an event, so the summary describes the resource as of that event. */
  readonly decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>;
  /** The catalog event a domain event of this category produces, or undefined for none. */
  catalogTypeOf(domainEventType: string): WebhookEventType | undefined;
  /** The webhook-safe summary of the folded state, or undefined when the stream holds no resource. */
  summaryOf(state: S): object | undefined;
}

export interface FeatureModule {
  /** A short name for logs and docs ('travel-entries'). */
  readonly name: string;
  /** Read models this feature owns (run by the projector, rebuilt by the CLI). */
  readonly projections?: readonly Projection[];
  /** Partner route plugins, mounted under /api/v1. */
  readonly routes?: readonly FastifyPluginAsync[];
  /** Named schemas its routes reference (added once on the root instance, listed in OpenAPI components). */
  readonly schemas?: readonly TSchema[];
  readonly webhooks?: WebhookSource;
}
