// A whole Travelog process (real database, real HTTP API on 127.0.0.1) plus a real HTTPS receiver
// on 127.0.0.1 with a self-signed certificate, wired for webhook tests: loopback allowed by
// WEBHOOK_ALLOWED_PRIVATE_CIDRS (the only relaxation of the URL policy), the receiver's
// certificate trusted by the delivery transport, the retry schedule compressed. The attempt timeout
// is generous (10 s): the receiver answers at once, and on a loaded machine a short timeout turned
// into a spurious retry, i.e. a second request and attemptCount 2 where tests count exactly one.
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../src/application/command-handler.js';
import type { CommandContext } from '../../src/domain/decider.js';
import {
  streamName as entryStream,
  travelEntryDecider,
  type TravelEntryCommand,
  type TravelEntryDraft,
} from '../../src/domain/travel-entries/index.js';
import { startTestApp, type TestApp } from './app.js';
import { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from './https-receiver.js';

export const FAST_DELAYS = '0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05';

export interface WebhookHarness {
  app: TestApp;
  receiver: HttpsReceiver;
  /** POST /api/v1/webhooks for the receiver (or `url`), returns the created body (with signingSecret). */
  subscribe(eventTypes: string[], opts?: { key?: string; path?: string; url?: string }): Promise<any>;
  /** Requests the receiver got at `path`. */
  received(path: string): ReceivedRequest[];
  waitForRequests(path: string, n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
}

export async function startWebhookHarness(
  t: { teardown(fn: () => unknown): void },
  env: Record<string, string> = {},
): Promise<WebhookHarness> {
  const receiver = await startHttpsReceiver();
  t.teardown(() => receiver.close());
  const app = await startTestApp(t, {
    webhookTrust: [receiver.ca],
    env: { WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS_SECONDS: FAST_DELAYS, WEBHOOK_TIMEOUT_MS: '10000', ...env },
  });
  const received = (path: string): ReceivedRequest[] => receiver.requests.filter((r) => r.path === path);
  return {
    app,
    receiver,
    received,
    async subscribe(eventTypes, opts = {}) {
      const url = opts.url ?? `${receiver.url.replace(/\/$/, '')}${opts.path ?? '/hook'}`;
      const res = await app.request('POST', '/api/v1/webhooks', { body: { url, eventTypes }, ...(opts.key ? { key: opts.key } : {}) });
      if (res.status !== 201) throw new Error(`subscribe failed: ${res.status} ${res.text}`);
      return res.body;
    },
    async waitForRequests(path, n, timeoutMs = 30_000) {
      return waitFor(
        () => {
          const r = received(path);
          return r.length >= n ? r : undefined;
        },
        timeoutMs,
        `${n} request(s) at ${path}`,
      );
    },
  };
}

export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Registers an employee over HTTP; returns its id. */
export async function registerEmployee(app: TestApp, fields: Record<string, unknown> = {}, key?: string): Promise<string> {
  const res = await app.request('POST', '/api/v1/employees', {
    body: { firstName: 'Ana', lastName: 'Horvat', ...fields },
    ...(key ? { key } : {}),
  });
  if (res.status !== 201) throw new Error(`employee: ${res.status} ${res.text}`);
  return res.body.id as string;
}

export function entryDraft(employeeId: string, over: Partial<TravelEntryDraft> = {}): TravelEntryDraft {
  return {
    entryDate: '2026-03-01',
    employeeId,
    departureDate: '2026-03-02',
    returnDate: '2026-03-03',
    departureLocation: 'Zagreb',
    destination: 'Wien',
    travelType: 'Foreign',
    purpose: 'Customer workshop',
    advancePayment: '200.00',
    currencyCode: 'EUR',
    advancePaymentInBaseCurrency: '200.00',
    advancePaymentExchangeRateSource: null,
    ...over,
  };
}

/** Runs a travel-entry command through the real write path (the entry routes are another engineer's). */
export async function entryCommand(
  app: TestApp,
  tenantId: string,
  entryId: string,
  command: TravelEntryCommand | ((entryId: string) => TravelEntryCommand),
) {
  const context: CommandContext = { tenantId, now: new Date().toISOString(), newId: randomUUID, actor: { system: 'webhook-test' } };
  return handleCommand(app.rt.store, {
    streamId: entryStream(entryId),
    decider: travelEntryDecider,
    command: typeof command === 'function' ? command(entryId) : command,
    context,
    correlationId: randomUUID(),
  });
}

let entryCounter = 0;
export async function createEntry(
  app: TestApp,
  tenantId: string,
  employeeId: string,
  over: Partial<TravelEntryDraft> = {},
): Promise<string> {
  const entryId = randomUUID();
  await entryCommand(app, tenantId, entryId, {
    type: 'CreateTravelEntry',
    data: { entryId, entryNumber: `2026-${String(++entryCounter).padStart(5, '0')}`, entry: entryDraft(employeeId, over) },
  });
  return entryId;
}
