// The outbound delivery transport of one process: one keep-alive agent shared by the dispatcher and
// the manual-retry route (createWebhookAgent pools sockets per origin), closed on shutdown. The
// composition root (src/main/runtime.ts) creates it and passes it to both; nothing here is module
// state, so two runtimes in one process (tests) never share sockets or trust.
//
// Trust: deliveries verify the partner's certificate against the system store (plus
// NODE_EXTRA_CA_CERTS for on-premises CAs). Tests run the whole process in-process against a
// receiver with a self-signed certificate made at test time, after the process started, so
// NODE_EXTRA_CA_CERTS cannot name it; `trustOnlyForTesting` lets a test replace the trust anchors
// from code. It is not reachable from configuration or the environment, so nothing an operator or
// a partner can set relaxes certificate verification.
import type https from 'node:https';
import { createWebhookAgent } from './http-post.js';

export interface TransportChoice {
  agent: https.Agent;
  ca?: string[];
}

export class DeliveryTransport {
  private agent: https.Agent | undefined;
  private readonly ca: string[] | undefined;

  /** `trustOnlyForTesting`: certificates (PEM) trusted instead of the system store; only code can pass it. */
  constructor(trustOnlyForTesting?: readonly string[]) {
    this.ca = trustOnlyForTesting ? [...trustOnlyForTesting] : undefined;
  }

  /** The agent (opened on first use) and, in tests only, the replaced trust anchors. */
  current(): TransportChoice {
    this.agent ??= createWebhookAgent();
    return this.ca ? { agent: this.agent, ca: this.ca } : { agent: this.agent };
  }

  /** Closes pooled sockets (shutdown); a later delivery opens a fresh agent. */
  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }
}
