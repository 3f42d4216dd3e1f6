// A whole Travelog process for a test file: real database (see db.ts), real projections and
// workers, the partner API listening on 127.0.0.1 and called over real HTTP.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createRuntime, type Runtime } from '../../src/main/runtime.js';
import { createTenant, setWorkflow, type Country } from '../../src/tenancy/tenants.js';
import { createApiKey, SCOPES, type Scope } from '../../src/tenancy/api-keys.js';
import type { Workflow } from '../../src/tenancy/model.js';
import { openTestDatabase, TEST_DATABASE_URL } from './db.js';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (for malformed-body tests). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  key?: string | null;
}

export interface TestApp {
  rt: Runtime;
  config: Config;
  baseUrl: string;
  /** A tenant with a key holding every scope, used by `request` unless another key is given. */
  tenant: { id: string; key: string; apiKeyId: string };
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  newTenant(opts?: {
    country?: Country;
    scopes?: Scope[];
    workflow?: Workflow | null;
  }): Promise<{ id: string; key: string; apiKeyId: string }>;
}

export async function startTestApp(
  t: { teardown(fn: () => unknown): void },
  opts: { env?: Record<string, string>; country?: Country; webhookTrust?: readonly string[] } = {},
): Promise<TestApp> {
  const handle = await openTestDatabase(t);
  const config = loadConfig({
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    RATES_FETCH: 'off',
    SECRETS_KEY: randomBytes(32).toString('hex'),
    ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    ...opts.env,
  });
  const rt = await createRuntime(config, {
    handle,
    startWork: true,
    logger: pino({ level: config.logLevel }),
    ...(opts.webhookTrust ? { webhookTrustForTesting: opts.webhookTrust } : {}),
  });
  t.teardown(() => rt.close());
  if (!rt.app) throw new Error('the test role serves no API');
  const address = await rt.app.listen({ host: '127.0.0.1', port: 0 });

  const newTenant: TestApp['newTenant'] = async (o = {}) => {
    const tenant = await createTenant(rt.handle.db, {
      name: `Tenant ${randomBytes(3).toString('hex')}`,
      country: o.country ?? opts.country ?? 'HR',
    });
    if (o.workflow) await setWorkflow(rt.handle.db, tenant.id, o.workflow);
    const key = await createApiKey(rt.handle.db, { tenantId: tenant.id, scopes: o.scopes ?? [...SCOPES] });
    return { id: tenant.id, key: key.key, apiKeyId: key.apiKeyId };
  };
  const tenant = await newTenant();

  const request: TestApp['request'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? tenant.key : o.key;
    if (key !== null) headers.authorization ??= `Bearer ${key}`;
    let body: string | Buffer | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${address}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text.length > 0) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as any, text };
  };
  return { rt, config, baseUrl: address, tenant, request, newTenant };
}
