// The whole Travelog process for an HTTP benchmark (the approach of test/helpers/app.ts, without
// importing test code): a fresh schema on the real PostgreSQL, createRuntime with ROLE all
// (API, projections, webhook worker), listening on 127.0.0.1 on a free port.
import { randomBytes } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { loadConfig } from '../../src/config/config.js';
import { createRuntime, type Runtime } from '../../src/main/runtime.js';
import { createTenant } from '../../src/tenancy/tenants.js';
import { createApiKey, SCOPES } from '../../src/tenancy/api-keys.js';
import { DATABASE_URL, freshSchema } from './db.js';

export interface BenchApp {
  rt: Runtime;
  origin: string;
  schema: string;
  tenant: { id: string; key: string };
  /** One JSON call with the tenant's key (or `key`); throws unless the status is `expect`. */
  call<T = any>(method: string, path: string, body?: unknown, expect?: number, key?: string): Promise<T>;
  /** Another tenant (HR) with a key holding every scope. */
  newTenant(): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

/** The pool size the production process opens (openDatabase's default). */
export const APP_POOL_SIZE = 20;

/** `logger`: the app's logger (default silent; http-get measures logging with its own). */
export async function startBenchApp(opts: { logger?: Logger } = {}): Promise<BenchApp> {
  const s = await freshSchema({ poolSize: APP_POOL_SIZE });
  let rt: Runtime | undefined;
  try {
    const config = loadConfig({
      DATABASE_URL,
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      RATES_FETCH: 'off',
      ROLE: 'all',
      HOST: '127.0.0.1',
      PORT: '0',
      SECRETS_KEY: randomBytes(32).toString('hex'),
      // The limiter runs as in production (its cost is part of every figure), with a per-key budget
      // one key at thousands of requests per second never reaches.
      RATE_LIMIT_PER_KEY_MAX: '100000000',
    });
    rt = await createRuntime(config, { handle: s.handle, startWork: true, logger: opts.logger ?? pino({ level: 'silent' }) });
    if (!rt.app) throw new Error('ROLE all serves no API');
    const origin = await rt.app.listen({ host: '127.0.0.1', port: 0 });
    const newTenant = async (): Promise<{ id: string; key: string }> => {
      const tenant = await createTenant(s.handle.db, { name: `Bench ${randomBytes(3).toString('hex')} d.o.o.`, country: 'HR' });
      const key = await createApiKey(s.handle.db, { tenantId: tenant.id, name: 'bench', scopes: [...SCOPES] });
      return { id: tenant.id, key: key.key };
    };
    const tenant = await newTenant();
    const call: BenchApp['call'] = async (method, path, body, expect = 200, key = tenant.key) => {
      const res = await fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
      return JSON.parse(text);
    };
    const runtime = rt;
    return {
      rt: runtime,
      origin,
      schema: s.schema,
      tenant,
      call,
      newTenant,
      async close() {
        await runtime.close();
        await s.drop();
      },
    };
  } catch (err) {
    await rt?.close().catch(() => undefined);
    await s.drop();
    throw err;
  }
}

/** Two cost centers of the key's tenant, for entryBody's allocations (allocations name real ones). */
export async function benchCostCenters(app: BenchApp, key?: string): Promise<[string, string]> {
  const ids = await Promise.all(
    ['CC-1', 'CC-2'].map(
      async (code) => (await app.call<{ id: string }>('POST', '/api/v1/cost-centers', { code, name: `Bench ${code}` }, 201, key)).id,
    ),
  );
  return [ids[0]!, ids[1]!];
}

/** A realistic create body: EUR only (an HR tenant needs no exchange rates), with children. */
export function entryBody(employeeId: string, costCenters: readonly [string, string]): Record<string, unknown> {
  return {
    employeeId,
    entryDate: '2026-03-01',
    departureDate: '2026-03-02',
    returnDate: '2026-03-04',
    departureLocation: 'Zagreb',
    destination: 'Wien',
    travelType: 'Foreign',
    purpose: 'Customer workshop',
    advancePayment: 100,
    currencyCode: 'EUR',
    expenses: [
      { date: '2026-03-02', category: 'Hotel', amount: '200.00', currencyCode: 'EUR' },
      { date: '2026-03-03', category: 'Taxi', amount: 12.5, currencyCode: 'EUR' },
    ],
    perDiems: [
      {
        countryCode: 'AT',
        departureTime: '2026-03-02T06:00:00Z',
        arrivalTime: '2026-03-04T18:00:00Z',
        mealsProvided: 2,
        amount: 150,
        currencyCode: 'EUR',
      },
    ],
    costCenterAllocations: [
      { costCenterId: costCenters[0], share: 60 },
      { costCenterId: costCenters[1], share: '40' },
    ],
  };
}

export const employeeBody = (i: number): Record<string, unknown> => ({ firstName: `Bench${i}`, lastName: 'Traveller' });

/** Creates `count` realistic entries for one employee through the API (two clients), their ids in creation order. */
export async function seedEntries(app: BenchApp, count: number): Promise<string[]> {
  const employee = await app.call<{ id: string }>('POST', '/api/v1/employees', employeeBody(1), 201);
  const body = entryBody(employee.id, await benchCostCenters(app));
  const ids: string[] = [];
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      while (ids.length < count) ids.push((await app.call<{ id: string }>('POST', '/api/v1/travel-entries', body, 201)).id);
    }),
  );
  return ids;
}
