// The event envelope (schema `WebhookEnvelope`) and its bytes. It is serialized exactly once, when
// the catalog projector records the event; those bytes are stored with every delivery and sent
// unchanged by every attempt, so the signature always covers what the partner receives and a
// retry can never differ from the original.
import type { WebhookEventType } from './event-types.js';
import { envelopeIdOf } from './event-id.js';

/** A webhook DTO of some feature (for example TravelEntryWebhookDto or EmployeeWebhookDto). */
export type ResourceSummary = object;

export interface WebhookEnvelope {
  /** `evt_` + the event GUID without dashes. */
  id: string;
  type: WebhookEventType;
  /** When the domain event was raised (ISO 8601 UTC), not when it is delivered. */
  createdAt: string;
  /** The webhook-safe summary as of the event, plus the stream revision it reflects. */
  data: ResourceSummary & { resourceVersion: number };
}

export function buildEnvelope(input: {
  eventGuid: string;
  type: WebhookEventType;
  occurredAt: string;
  summary: ResourceSummary;
  revision: number;
}): WebhookEnvelope {
  return {
    id: envelopeIdOf(input.eventGuid),
    type: input.type,
    createdAt: new Date(input.occurredAt).toISOString(),
    data: { ...input.summary, resourceVersion: input.revision },
  };
}

/** Compact JSON: the text of the stored and signed bytes (the event feed stores it as text). */
export const envelopeText = (envelope: WebhookEnvelope): string => JSON.stringify(envelope);

/** Compact JSON in UTF-8; the stored and signed bytes. */
export function serializeEnvelope(envelope: WebhookEnvelope): Buffer {
  return Buffer.from(envelopeText(envelope), 'utf8');
}
