// One recorded event as a catalog event: whether it is one (a catalog type, a tenant and ids the
// catalog can derive from), and its envelope bytes given the resource summary as of the event. The
// catalog projector (deliveries) and the event feed (projections/event-feed) both call these, so a
// partner sees the same id and the same bytes from a webhook and from the feed.
import type { RecordedEvent } from '../../eventstore/port.js';
import type { WebhookEventType } from './event-types.js';
import { buildEnvelope, serializeEnvelope, type ResourceSummary, type WebhookEnvelope } from './envelope.js';
import { webhookEventGuid } from './event-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CatalogEvent {
  type: WebhookEventType;
  tenantId: string;
  /** Dashed GUID (the Service-Event-Id header); the envelope id is its `evt_` form. */
  eventGuid: string;
}

/** Undefined for an event the catalog does not publish (no catalog type, or a tenant or id that is not a UUID). */
export function catalogEventOf(
  event: RecordedEvent,
  typeOf: (domainEventType: string) => WebhookEventType | undefined,
): CatalogEvent | undefined {
  const type = typeOf(event.type);
  const tenantId = event.metadata?.tenantId;
  if (type === undefined || typeof tenantId !== 'string' || !UUID.test(tenantId) || !UUID.test(event.id)) return undefined;
  return { type, tenantId, eventGuid: webhookEventGuid(event.id) };
}

/** The envelope: createdAt is when the domain event was raised (its recording time if that is unreadable). */
export function catalogEnvelopeOf(event: RecordedEvent, catalogEvent: CatalogEvent, summary: ResourceSummary): WebhookEnvelope {
  const occurred = new Date(event.metadata.occurredAt);
  return buildEnvelope({
    eventGuid: catalogEvent.eventGuid,
    type: catalogEvent.type,
    occurredAt: Number.isNaN(occurred.getTime()) ? event.recordedAt.toISOString() : occurred.toISOString(),
    summary,
    revision: event.revision,
  });
}

/** The envelope's bytes: what a delivery signs and sends, and what the feed serves. */
export const catalogEnvelopeBytes = (event: RecordedEvent, catalogEvent: CatalogEvent, summary: ResourceSummary): Buffer =>
  serializeEnvelope(catalogEnvelopeOf(event, catalogEvent, summary));
