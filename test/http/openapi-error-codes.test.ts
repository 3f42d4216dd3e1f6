// The OpenAPI document lists, per operation, the error codes it can answer (`x-error-codes`), each
// from the one error table, with a problem response for each code's status.
import t from 'tap';
import { ERROR_CODES, isErrorCode } from '../../src/domain/error-codes.js';
import { startTestApp } from '../helpers/app.js';

t.test('every operation lists its error codes, and each code has its response', async (t) => {
  const app = await startTestApp(t);
  const doc = (await app.request('GET', '/api-reference/openapi.json', { key: null })).body;
  const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );
  const partner = operations.filter((o) => o.name.includes('/api/v1/'));
  t.ok(partner.length > 30, `${partner.length} partner operations`);
  for (const { name, op } of partner) {
    const codes: string[] = op['x-error-codes'] ?? [];
    t.ok(codes.length >= 3, `${name} lists its codes`);
    for (const code of codes) {
      t.ok(isErrorCode(code), `${name}: ${code} is in the table`);
      if (isErrorCode(code)) t.ok(op.responses[String(ERROR_CODES[code].status)], `${name}: a response for ${code}`);
    }
  }
  // Errors are declared with the media type they are sent with (outside probe, session 21).
  for (const { name, op } of partner) {
    for (const [status, response] of Object.entries<any>(op.responses)) {
      if (/^[45]/.test(status)) t.same(Object.keys(response.content ?? {}), ['application/problem+json'], `${name} ${status}`);
    }
  }
  const refused = await app.request('POST', '/api/v1/employees', { body: {} });
  t.equal(refused.headers.get('content-type'), 'application/problem+json; charset=utf-8', 'as the server sends it');
  // The body parser's answers, on every operation a body can be sent to (outside probe, session 21).
  for (const { name, op } of partner.filter((o) => /^(POST|PUT|PATCH) /.test(o.name))) {
    t.ok(
      ['MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'].every((c) => op['x-error-codes']?.includes(c)),
      `${name} lists the body parser's codes`,
    );
    t.ok(op.responses['413'] && op.responses['415'], `${name} declares 413 and 415`);
  }
  // Every operation that takes an Idempotency-Key lists the key's refusals: in use, reused for
  // another request, an abandoned request carried out (plugins/idempotency.ts, sessions 22 and 25;
  // the calculator and the webhook retries lacked them).
  const keyed = partner.filter((o) =>
    (o.op.parameters ?? []).some((p: { $ref?: string }) => p.$ref === '#/components/parameters/IdempotencyKey'),
  );
  t.ok(keyed.length > 10, `${keyed.length} operations take an Idempotency-Key`);
  for (const { name, op } of keyed) {
    for (const code of ['IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REPLAY_UNAVAILABLE'])
      t.ok(op['x-error-codes']?.includes(code), `${name} lists ${code}`);
  }
  // And no other: the key is read on POST only (plugins/idempotency.ts); a PUT or DELETE that listed
  // its refusals told partners a key was honoured there (onboarding try, session 27).
  for (const { name, op } of partner.filter((o) => !keyed.includes(o))) {
    t.notOk(
      ['IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REPLAY_UNAVAILABLE'].some((c) => op['x-error-codes']?.includes(c)),
      `${name} lists none of the key's refusals`,
    );
  }
  t.ok(
    keyed.some((o) => o.name === 'POST /api/v1/utilities/per-diems/calculate'),
    'the calculator takes a key (every authenticated POST does)',
  );
  // A rate limit and an unavailable database can answer any authenticated operation; a generated
  // client needs them typed on each (contract try, session 27: 429 was only in the description).
  // A public operation says so with `security: []` (document.ts); every other one takes a key.
  const authenticated = partner.filter((o) => !(Array.isArray(o.op.security) && o.op.security.length === 0));
  t.ok(authenticated.length > 30, `${authenticated.length} authenticated operations`);
  for (const { name, op } of authenticated) {
    t.ok(op.responses['429'] && op.responses['503'], `${name} declares 429 and 503`);
    t.ok(
      ['RATE_LIMITED', 'SERVICE_UNAVAILABLE'].every((c) => op['x-error-codes']?.includes(c)),
      `${name} lists them`,
    );
  }
  const create = partner.find((o) => o.name === 'POST /api/v1/travel-entries')!.op;
  t.ok(create['x-error-codes'].includes('ENTRY_NUMBER_TAKEN'), 'creating an entry can answer ENTRY_NUMBER_TAKEN');
  t.ok(create['x-error-codes'].includes('EXCHANGE_RATE_UNAVAILABLE'));
  const retry = partner.find((o) => o.name === 'POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/retry');
  t.ok(retry?.op['x-error-codes'].includes('DELIVERY_NOT_RETRYABLE'), 'a delivery retry can answer DELIVERY_NOT_RETRYABLE');
});
