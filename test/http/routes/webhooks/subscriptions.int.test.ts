// Webhook subscriptions over real HTTP with the default URL policy (no private range allowed):
// create (secret once, encrypted at rest), list and read (never the secret), the URL-policy and
// event-type validation battery with its codes, Idempotency-Key without storing the secret in
// plain text, scopes, and the published schemas. No subscription created here ever gets an event,
// and no URL here is ever connected to (IP literals and localhost only: no DNS query leaves the host).
import t from 'tap';
import { sql } from 'kysely';
import { startTestApp } from '../../../helpers/app.js';

t.test('webhook subscriptions', async (t) => {
  const app = await startTestApp(t);
  const db = app.rt.handle.db;
  // A tenant that never records a domain event, so its public-address subscriptions never deliver.
  const quiet = await app.newTenant();
  const as = { key: quiet.key };
  const create = (body: unknown, headers: Record<string, string> = {}) => app.request('POST', '/api/v1/webhooks', { body, headers, ...as });

  t.test('create: 201 with the secret once; list and read never show it; sealed at rest', async (t) => {
    const res = await create({ url: 'https://1.1.1.1:443/a/../hook?x=1', eventTypes: ['entry.approved', 'employee.created'] });
    t.equal(res.status, 201, res.text);
    t.same(Object.keys(res.body).sort(), [
      'createdAt',
      'disabledAt',
      'disabledReason',
      'eventTypes',
      'id',
      'isActive',
      'previousSecretExpiresAt',
      'signingSecret',
      'url',
    ]);
    t.match(res.body, {
      id: /^[0-9a-f-]{36}$/,
      url: 'https://1.1.1.1/hook?x=1',
      eventTypes: ['entry.approved', 'employee.created'],
      isActive: true,
      disabledAt: null,
      disabledReason: null,
      previousSecretExpiresAt: null,
    });
    t.match(res.body.signingSecret, /^whsec_[A-Za-z0-9_-]{43}$/, 'whsec_ + 32 random bytes, base64url');
    t.equal(res.headers.get('location'), `/api/v1/webhooks/${res.body.id}`);
    const secret = res.body.signingSecret;

    const one = await app.request('GET', `/api/v1/webhooks/${res.body.id}`, as);
    t.equal(one.status, 200);
    t.notOk('signingSecret' in one.body);
    t.notOk(one.text.includes(secret));
    const all = await app.request('GET', '/api/v1/webhooks', as);
    t.match(all.body, { page: 1, pageSize: 50, total: 1 });
    t.notOk(all.text.includes('whsec_'));

    const row = await sql<{
      secret_sealed: string;
    }>`select secret_sealed from webhook_subscriptions where id = ${res.body.id}::uuid`.execute(db);
    t.match(row.rows[0]!.secret_sealed, /^v1\./, 'sealed with SECRETS_KEY');
    t.notOk(row.rows[0]!.secret_sealed.includes(secret.slice(6)));
    t.equal(app.rt.secrets.open(row.rows[0]!.secret_sealed), secret);
    t.equal((await app.request('DELETE', `/api/v1/webhooks/${res.body.id}`, as)).status, 204);
  });

  t.test('URL policy: HTTPS only, public unicast only, every spelling', async (t) => {
    const cases: [string, string][] = [
      ['http://1.1.1.1/hook', 'WEBHOOK_URL_NOT_HTTPS'],
      ['ftp://1.1.1.1/hook', 'WEBHOOK_URL_NOT_HTTPS'],
      ['https://127.0.0.1/hook', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://127.1/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://2130706433/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://0x7f000001/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://0177.0.0.1/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://localhost/hook', 'WEBHOOK_URL_UNRESOLVABLE'], // a name: refused as one that does not resolve (url-policy.ts)
      ['https://[::1]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[::]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://0.0.0.0/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://0/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://10.0.0.1/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://172.16.5.4/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://192.168.1.1/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://169.254.169.254/latest/meta-data/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://100.64.0.1/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://198.18.0.1/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://224.0.0.1/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://255.255.255.255/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[::ffff:127.0.0.1]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[::ffff:a00:1]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[::7f00:1]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[64:ff9b::a9fe:a9fe]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[2002:7f00:1::]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[2001::1]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[fc00::1]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[fd00:ec2::254]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[fe80::1]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['https://[ff02::1]/', 'WEBHOOK_URL_FORBIDDEN_ADDRESS'],
      ['not a url', 'WEBHOOK_URL_INVALID'],
      ['https://user:pw@1.1.1.1/', 'WEBHOOK_URL_INVALID'],
      ['https://1.1.1.1/#frag', 'WEBHOOK_URL_INVALID'],
      ['https://1.1.1.1:0/', 'WEBHOOK_URL_INVALID'],
      [`https://1.1.1.1/${'a'.repeat(2100)}`, 'WEBHOOK_URL_INVALID'],
      // Text no storage can hold, inside a URL the WHATWG parser would otherwise clean up silently
      // (%00, %EF%BF%BD, a stripped NUL): refused as in every other field.
      ['https://1.1.1.1/a\u0000b', 'VALIDATION_FAILED'],
      ['\u0000https://1.1.1.1/a', 'VALIDATION_FAILED'],
      ['https://1.1.1.1/a\u0000', 'VALIDATION_FAILED'],
      ['https://1.1.1.1/a\ud800', 'VALIDATION_FAILED'],
    ];
    for (const [url, code] of cases) {
      const res = await create({ url, eventTypes: ['entry.created'] });
      // Named as JSON: a raw NUL in the test output would make it a binary file to grep (.ci/run).
      t.same([res.status, res.body.code, Object.keys(res.body.errors ?? {})], [400, code, ['url']], JSON.stringify(url).slice(0, 60));
      t.match(res.headers.get('content-type'), /^application\/problem\+json/);
      t.notMatch(JSON.stringify(res.body.errors), /127\.0\.0\.1|10\.0\.0\.1|::1/, 'no resolved address in the message');
    }
    t.equal((await app.request('GET', '/api/v1/webhooks', as)).body.total, 0, 'nothing was created');
  });

  t.test('event types: non-empty, known, no duplicates', async (t) => {
    for (const eventTypes of [
      [],
      ['entry.nope'],
      ['entry.created', 'entry.created'],
      ['Entry.Created'],
      'entry.created',
      [42],
      undefined,
    ]) {
      const res = await create({ url: 'https://1.1.1.1/hook', ...(eventTypes === undefined ? {} : { eventTypes }) });
      t.same(
        [res.status, res.body.code, Object.keys(res.body.errors)],
        [400, 'WEBHOOK_EVENT_TYPES_INVALID', ['eventTypes']],
        JSON.stringify(eventTypes),
      );
    }
    const both = await create({ url: 'http://1.1.1.1/', eventTypes: [] });
    t.same(
      [both.body.code, Object.keys(both.body.errors).sort()],
      ['WEBHOOK_URL_NOT_HTTPS', ['eventTypes', 'url']],
      'both fields listed; the url code wins',
    );
    const unknown = await create({ url: 'https://1.1.1.1/', eventTypes: ['entry.created'], secret: 'mine' });
    t.same(
      [unknown.status, unknown.body.code, unknown.body.errors],
      [400, 'VALIDATION_FAILED', { secret: ['Unknown field.'] }],
      'strict body',
    );
    const noUrl = await create({ eventTypes: ['entry.created'] });
    t.same([noUrl.body.code, noUrl.body.errors], ['VALIDATION_FAILED', { url: ['Required.'] }]);
    const notObject = await create(['https://1.1.1.1/']);
    t.same([notObject.status, notObject.body.code], [400, 'VALIDATION_FAILED']);
    t.equal((await app.request('GET', '/api/v1/webhooks', as)).body.total, 0);
  });

  t.test('Idempotency-Key: replayed from the sealed copy, never stored in plain text', async (t) => {
    const body = { url: 'https://1.1.1.1/idem', eventTypes: ['entry.created'] };
    const first = await create(body, { 'idempotency-key': 'create-1' });
    t.equal(first.status, 201);
    const again = await create(body, { 'idempotency-key': 'create-1' });
    t.same(
      [again.status, again.headers.get('idempotent-replayed'), again.body.id, again.body.signingSecret],
      [201, 'true', first.body.id, first.body.signingSecret],
    );
    t.equal((await app.request('GET', '/api/v1/webhooks', as)).body.total, 1, 'one subscription');
    const other = await create({ ...body, url: 'https://1.1.1.1/other' }, { 'idempotency-key': 'create-1' });
    t.same([other.status, other.body.code], [422, 'IDEMPOTENCY_KEY_REUSED']);
    const stored = await sql<{
      n: number;
    }>`select count(*)::int as n from idempotency_keys where response_body like ${'%whsec_%'} or (key = 'create-1' and response_body is not null)`.execute(
      db,
    );
    t.equal(stored.rows[0]!.n, 0, 'the shared idempotency store never saw the secret (it holds the key only)');
    // One namespace of keys (found from outside, session 14): a webhook's key is refused on any
    // other operation, another operation's key is refused here, a create's key on a rotation.
    const employee = await app.request('POST', '/api/v1/employees', {
      ...as,
      body: { firstName: 'Key', lastName: 'Reuse' },
      headers: { 'idempotency-key': 'create-1' },
    });
    t.same([employee.status, employee.body.code], [422, 'IDEMPOTENCY_KEY_REUSED'], 'a webhook create key on another operation');
    const byEmployee = await app.request('POST', '/api/v1/employees', {
      ...as,
      body: { firstName: 'Key', lastName: 'Owner' },
      headers: { 'idempotency-key': 'emp-1' },
    });
    t.equal(byEmployee.status, 201);
    const taken = await create({ ...body, url: 'https://1.1.1.1/taken' }, { 'idempotency-key': 'emp-1' });
    t.same([taken.status, taken.body.code], [422, 'IDEMPOTENCY_KEY_REUSED'], 'another operation’s key on a webhook create');
    const rotateWithCreateKey = await app.request('POST', `/api/v1/webhooks/${first.body.id}/rotate-secret`, {
      ...as,
      headers: { 'idempotency-key': 'create-1' },
    });
    t.same([rotateWithCreateKey.status, rotateWithCreateKey.body.code], [422, 'IDEMPOTENCY_KEY_REUSED'], 'nothing rotated');

    const r1 = await app.request('POST', `/api/v1/webhooks/${first.body.id}/rotate-secret`, {
      ...as,
      headers: { 'idempotency-key': 'rot-1' },
    });
    const r2 = await app.request('POST', `/api/v1/webhooks/${first.body.id}/rotate-secret`, {
      ...as,
      headers: { 'idempotency-key': 'rot-1' },
    });
    t.same([r1.status, r2.status, r2.headers.get('idempotent-replayed')], [200, 200, 'true']);
    t.equal(r2.body.signingSecret, r1.body.signingSecret, 'a replayed rotation returns the same new secret');
    const r3 = await app.request('POST', `/api/v1/webhooks/${first.body.id}/rotate-secret`, {
      ...as,
      headers: { 'idempotency-key': 'rot-2' },
    });
    t.not(r3.body.signingSecret, r1.body.signingSecret);
    const stale = await create(body, { 'idempotency-key': 'create-1' });
    t.same([stale.status, stale.body.code], [409, 'IDEMPOTENCY_REPLAY_UNAVAILABLE'], 'the secret it returned is no longer current');
    t.equal((await create(body, { 'idempotency-key': 'x'.repeat(300) })).status, 400);
    t.equal((await app.request('DELETE', `/api/v1/webhooks/${first.body.id}`, as)).status, 204);
  });

  t.test('a key held by a create that failed on the server is released: the retry runs again', async (t) => {
    // The subscriptions table goes missing for one request: a 500 after the key was held.
    const body = { url: 'https://1.1.1.1/after-500', eventTypes: ['entry.created'] };
    await sql`alter table webhook_subscriptions rename to webhook_subscriptions_away`.execute(db);
    let failed;
    try {
      failed = await create(body, { 'idempotency-key': 'server-error-1' });
    } finally {
      await sql`alter table webhook_subscriptions_away rename to webhook_subscriptions`.execute(db);
    }
    t.equal(failed.status, 500, failed.text);
    const retried = await create(body, { 'idempotency-key': 'server-error-1' });
    t.same([retried.status, retried.headers.get('idempotent-replayed')], [201, null], retried.text);
    t.equal((await app.request('DELETE', `/api/v1/webhooks/${retried.body.id}`, as)).status, 204);
  });

  t.test('scope webhooks; 401 without a key', async (t) => {
    const reader = await app.newTenant({ scopes: ['read', 'write'] });
    const res = await app.request('POST', '/api/v1/webhooks', {
      key: reader.key,
      body: { url: 'https://1.1.1.1/', eventTypes: ['entry.created'] },
    });
    t.same([res.status, res.body.code], [403, 'INSUFFICIENT_SCOPE']);
    t.equal((await app.request('GET', '/api/v1/webhooks', { key: reader.key })).status, 403);
    t.equal((await app.request('GET', '/api/v1/webhooks', { key: null })).status, 401);
  });

  t.test('the published schema: WebhookEventType, WebhookEnvelope and its data shapes', async (t) => {
    const doc = (await app.request('GET', '/api-reference/openapi.json')).body;
    const c = doc.components.schemas;
    t.same(c.WebhookEventType.enum, [
      'entry.created',
      'entry.updated',
      'entry.approved',
      'entry.paidout',
      'employee.created',
      'employee.updated',
    ]);
    t.ok(c.WebhookEnvelope && c.TravelEntryWebhookDto && c.EmployeeWebhookDto && c.WebhookDeliveryDetail);
    // The envelope is a union discriminated on type: one envelope per event family, same fields.
    t.equal(c.WebhookEnvelope.discriminator.propertyName, 'type');
    for (const family of ['TravelEntryWebhookEnvelope', 'EmployeeWebhookEnvelope']) {
      t.same(Object.keys(c[family].properties), ['id', 'type', 'createdAt', 'data'], family);
    }
    for (const p of [
      '/api/v1/webhooks',
      '/api/v1/webhooks/{id}',
      '/api/v1/webhooks/{id}/rotate-secret',
      '/api/v1/webhooks/{id}/deliveries',
      '/api/v1/webhooks/{id}/deliveries/{deliveryId}',
      '/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry',
      '/api/v1/webhooks/{id}/recover',
    ]) {
      t.ok(doc.paths[p], p);
    }
  });
});
