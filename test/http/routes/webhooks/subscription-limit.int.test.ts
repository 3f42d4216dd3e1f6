// The per-tenant webhook subscription limit: 409 LIMIT_REACHED naming the limit, deleted
// subscriptions do not count, other tenants are not affected, concurrent creates at limit - 1
// cannot both pass, and an Idempotency-Key replay of an earlier create still replays.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { insertSubscription } from '../../../../src/webhooks/subscriptions/store.js';
import { startTestApp } from '../../../helpers/app.js';

const LIMIT = 3;

t.test('webhook subscription limit per tenant', async (t) => {
  const app = await startTestApp(t, { env: { WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT: String(LIMIT) } });
  // Public IP literals: no subscription here is ever delivered to (the tenants record no events).
  const body = (i: number) => ({ url: `https://1.1.1.1/hook-${i}`, eventTypes: ['employee.created'] });

  t.test('the limit, deletes, other tenants, replays', async (t) => {
    const tenant = await app.newTenant();
    const as = { key: tenant.key };
    const ids: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const r = await app.request('POST', '/api/v1/webhooks', { ...as, body: body(i), headers: { 'idempotency-key': `create-${i}` } });
      t.equal(r.status, 201, r.text);
      ids.push(r.body.id);
    }
    const over = await app.request('POST', '/api/v1/webhooks', { ...as, body: body(99) });
    t.equal(over.status, 409);
    t.match(over.headers.get('content-type'), /^application\/problem\+json/);
    t.match(over.body, { code: 'LIMIT_REACHED', status: 409, limit: LIMIT });
    t.equal((await app.request('GET', '/api/v1/webhooks', as)).body.total, LIMIT, 'nothing was created');

    const replay = await app.request('POST', '/api/v1/webhooks', { ...as, body: body(0), headers: { 'idempotency-key': 'create-0' } });
    t.equal(replay.status, 201, 'a replay of an earlier create is not a new subscription');
    t.equal(replay.headers.get('idempotent-replayed'), 'true');

    const other = await app.newTenant();
    t.equal(
      (await app.request('POST', '/api/v1/webhooks', { key: other.key, body: body(0) })).status,
      201,
      'another tenant has its own limit',
    );

    t.equal((await app.request('DELETE', `/api/v1/webhooks/${ids[1]}`, as)).status, 204);
    t.equal(
      (await app.request('POST', '/api/v1/webhooks', { ...as, body: body(100) })).status,
      201,
      'a deleted subscription does not count',
    );
    t.equal((await app.request('POST', '/api/v1/webhooks', { ...as, body: body(101) })).status, 409);
  });

  t.test('concurrent creates at limit - 1: exactly one passes', async (t) => {
    const tenant = await app.newTenant();
    for (let i = 0; i < LIMIT - 1; i++) {
      t.equal((await app.request('POST', '/api/v1/webhooks', { key: tenant.key, body: body(i) })).status, 201);
    }
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => app.request('POST', '/api/v1/webhooks', { key: tenant.key, body: body(200 + i) })),
    );
    const statuses = results.map((r) => r.status).sort();
    t.same(statuses, [201, 409, 409, 409, 409, 409, 409, 409], statuses.join(','));
    t.ok(results.filter((r) => r.status === 409).every((r) => r.body.code === 'LIMIT_REACHED'));
    t.equal((await app.request('GET', '/api/v1/webhooks', { key: tenant.key })).body.total, LIMIT);
  });

  t.test('concurrent inserts at limit - 1, straight at the store: exactly one passes', async (t) => {
    const tenant = await app.newTenant();
    const insert = (i: number) =>
      insertSubscription(app.rt.handle.db, {
        id: randomUUID(),
        tenantId: tenant.id,
        url: `https://1.1.1.1/s-${i}`,
        eventTypes: ['employee.created'],
        secretSealed: app.rt.secrets.seal('whsec_x'),
        maxPerTenant: LIMIT,
      });
    for (let i = 0; i < LIMIT - 1; i++) await insert(i);
    const settled = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => insert(100 + i)));
    t.equal(settled.filter((s) => s.status === 'fulfilled').length, 1);
    t.ok(settled.every((s) => s.status === 'fulfilled' || (s.reason as { code?: string }).code === 'LIMIT_REACHED'));
  });
});
