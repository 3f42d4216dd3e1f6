// One delivery attempt as the dispatcher runs it: re-check the stored URL against the policy
// (resolving the host once), then POST to exactly the addresses that passed. Keeping check and send
// together here means no caller can connect to an address that was not vetted in the same attempt.
// The timeout budget covers both steps; policy refusals become attempt results, not exceptions.
import type https from 'node:https';
import { performance } from 'node:perf_hooks';
import { postWebhook } from './http-post.js';
import type { AttemptResult } from './outcome.js';
import { checkWebhookUrl, type Resolver } from '../subscriptions/url-policy.js';

export interface AttemptDeliveryRequest {
  /** The subscription's stored URL (the normalised href from checkWebhookUrl at create time). */
  url: string;
  body: Buffer;
  /** From buildDeliveryHeaders, signed just now. */
  headers: Readonly<Record<string, string>>;
  /** WEBHOOK_TIMEOUT_MS: the whole attempt, DNS included. */
  timeoutMs: number;
  /** WEBHOOK_ALLOWED_PRIVATE_CIDRS. */
  allowedPrivateCidrs?: readonly string[];
  resolver?: Resolver;
  ca?: string | Buffer | Array<string | Buffer>;
  agent: https.Agent;
}

/** Never rejects. `dns` when the name does not resolve to public addresses only now; `blocked_address` when the URL's own address or shape no longer passes the policy. */
export async function attemptDelivery(request: AttemptDeliveryRequest): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const check = await checkWebhookUrl(request.url, {
    ...(request.allowedPrivateCidrs ? { allowedPrivateCidrs: request.allowedPrivateCidrs } : {}),
    ...(request.resolver ? { resolver: request.resolver } : {}),
    resolveTimeoutMs: request.timeoutMs,
  });
  if (!check.ok) {
    return {
      latencyMs: elapsed(),
      failureClass: check.code === 'WEBHOOK_URL_UNRESOLVABLE' ? 'dns' : 'blocked_address',
      errorMessage: check.message,
    };
  }
  const result = await postWebhook({
    url: check.url,
    addresses: check.addresses,
    body: request.body,
    headers: request.headers,
    timeoutMs: Math.max(1, request.timeoutMs - elapsed()),
    ...(request.ca !== undefined ? { ca: request.ca } : {}),
    agent: request.agent,
  });
  const errorMessage = result.failureClass === 'timeout' ? `No complete response within ${request.timeoutMs} ms` : result.errorMessage;
  return { ...result, latencyMs: elapsed(), errorMessage };
}
