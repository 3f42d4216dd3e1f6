// The webhook event catalog (spec, Events; enum `WebhookEventType`). The set is complete for a
// release: a new type comes only with a new domain event. Which domain event maps to which type is
// each feature's own declaration (src/features/<feature>.ts, `webhooks.catalogTypeOf`).

export const WEBHOOK_EVENT_TYPES = [
  'entry.created',
  'entry.updated',
  'entry.approved',
  'entry.paidout',
  'employee.created',
  'employee.updated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
