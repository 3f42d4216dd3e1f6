// The process's outbound delivery transport: one keep-alive agent shared by the dispatcher and the
// manual-retry route (createWebhookAgent pools sockets per origin), destroyed on shutdown.
//
// Trust: deliveries verify the partner's certificate against the system store (plus
// NODE_EXTRA_CA_CERTS for on-premises CAs). Tests run the whole process in-process against a
// receiver with a self-signed certificate made at test time, after the process started, so
// NODE_EXTRA_CA_CERTS cannot name it; `trustOnlyForTesting` lets a test replace the trust anchors
// from code. It is not reachable from configuration or the environment, so nothing an operator or
// a partner can set relaxes certificate verification.
import type https from 'node:https';
import { createWebhookAgent } from './http-post.js';

let agent: https.Agent | undefined;
let testTrust: string[] | undefined;

export interface DeliveryTransport {
  agent: https.Agent;
  ca?: string[];
}

export function deliveryTransport(): DeliveryTransport {
  agent ??= createWebhookAgent();
  return testTrust ? { agent, ca: testTrust } : { agent };
}

/** Test code only: the certificates (PEM) that are trusted instead of the system store, or undefined to restore it. */
export function trustOnlyForTesting(pems: string[] | undefined): void {
  testTrust = pems ? [...pems] : undefined;
  // Pooled sockets were verified under the old anchors; start over.
  agent?.destroy();
  agent = undefined;
}

/** Closes pooled sockets (process shutdown); a later delivery opens a fresh agent. */
export function closeDeliveryTransport(): void {
  agent?.destroy();
  agent = undefined;
}
