// The exact header set of a delivery (spec, "Headers on every delivery"). Built, and therefore
// signed, immediately before each attempt: the signature timestamp must be fresh every time while
// the body bytes and the event id stay the same. Node adds Host, Content-Length and Connection.
import { signPayload } from './signature.js';

export const WEBHOOK_CONTENT_TYPE = 'application/json; charset=utf-8';
export const WEBHOOK_USER_AGENT = 'Service-Webhook/1.0';

export interface DeliveryHeaderInput {
  /** The stored body bytes, exactly as they will be sent. */
  body: Buffer;
  /** Every secret that signs (two during a rotation window), newest first. */
  secrets: readonly string[];
  /** For example `entry.updated`. */
  eventType: string;
  /** The event GUID in dashed 8-4-4-4-12 form. */
  eventId: string;
  /** The delivery row id. */
  deliveryId: string;
  /** Signature timestamp; default the current time. */
  nowSec?: number;
}

export function buildDeliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  const t = input.nowSec ?? Math.floor(Date.now() / 1000);
  return {
    'Content-Type': WEBHOOK_CONTENT_TYPE,
    'User-Agent': WEBHOOK_USER_AGENT,
    'Service-Event': input.eventType,
    'Service-Event-Id': input.eventId,
    'Service-Signature': signPayload(input.body, input.secrets, t),
    'Service-Delivery-Id': input.deliveryId,
  };
}
