// The webhook event id: a stable GUID per logical event, derived from the domain event's id, so
// redelivering the domain event, retrying a delivery, and fanning out to several subscriptions all
// carry the same id (the partner's idempotency key). It is a name-based UUID (RFC 9562 version 5,
// SHA-1) of the domain event id in a namespace of our own; the derivation is one-way, so the
// domain event id is not exposed.
import { createHash } from 'node:crypto';

/** Fixed forever: changing it would change every event id partners have already seen. */
export const WEBHOOK_EVENT_NAMESPACE = '4ff340fe-a554-41af-9a53-85c04a16f5ab';

/** Dashed 8-4-4-4-12 lowercase form (the Service-Event-Id header). */
export function webhookEventGuid(domainEventId: string): string {
  const hash = createHash('sha1').update(uuidBytes(WEBHOOK_EVENT_NAMESPACE)).update(domainEventId.toLowerCase(), 'utf8').digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50; // version 5
  b[8] = (b[8]! & 0x3f) | 0x80; // RFC variant
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `evt_` + 32 lowercase hex characters (the envelope's `id`, `evt_{guid:N}`). */
export function envelopeIdOf(guid: string): string {
  return `evt_${guid.replaceAll('-', '').toLowerCase()}`;
}

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replaceAll('-', ''), 'hex');
}
