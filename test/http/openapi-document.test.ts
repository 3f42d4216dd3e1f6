// The OpenAPI document as SDK generators take it: an operationId on every operation, defined tags,
// the convention headers declared where they apply, public health probes, and a `webhooks` section
// whose envelope is discriminated on `type`. (Redocly and Spectral lint the same document in
// `npm run lint`; this test holds the properties a generator depends on.)
import t from 'tap';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/catalog/event-types.js';
import { startTestApp } from '../helpers/app.js';

t.test('the document is ready for SDK generators', async (t) => {
  const app = await startTestApp(t);
  const doc = (await app.request('GET', '/api-reference/openapi.json', { key: null })).body;
  const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ method, path, op, name: `${method.toUpperCase()} ${path}` })),
  );
  t.ok(ops.length > 60, `${ops.length} operations`);

  const ids = ops.map((o) => o.op.operationId);
  t.ok(
    ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
    'every operation has a camelCase operationId',
  );
  t.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  t.equal(ops.find((o) => o.name === 'GET /api/v1/travel-entries')?.op.operationId, 'listTravelEntries');
  t.equal(ops.find((o) => o.name === 'POST /api/v1/travel-entries/{id}/approve')?.op.operationId, 'approveTravelEntry');

  const tagNames = new Set((doc.tags as { name: string; description: string }[]).map((tag) => tag.name));
  for (const o of ops) for (const tag of o.op.tags ?? []) t.ok(tagNames.has(tag), `${o.name}: tag ${tag} is defined`);
  t.ok(
    (doc.tags as { description: string }[]).every((tag) => tag.description.length > 10),
    'every tag is described',
  );
  t.ok(doc.servers?.length > 0, 'servers are declared');

  const params = (o: { op: any }): string[] =>
    (o.op.parameters ?? []).map((p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()].name : p.name));
  for (const o of ops.filter((x) => x.method === 'post' && x.path.startsWith('/api/v1/'))) {
    t.ok(params(o).includes('Idempotency-Key'), `${o.name} declares Idempotency-Key`);
  }
  const replace = ops.find((o) => o.name === 'PUT /api/v1/travel-entries/{id}')!;
  t.ok(params(replace).includes('If-Match'), 'a replace declares If-Match');
  t.ok(replace.op.responses['200'].headers?.ETag, 'and answers an ETag');
  const create = ops.find((o) => o.name === 'POST /api/v1/travel-entries')!;
  t.ok(create.op.responses['201'].headers?.Location, 'a create answers a Location');
  t.ok(create.op.responses['201'].headers?.['Idempotent-Replayed'], 'and may be a replay');

  for (const probe of ['GET /healthz', 'GET /readyz']) {
    t.same(ops.find((o) => o.name === probe)?.op.security, [], `${probe} is public`);
  }
  const list = ops.find((o) => o.name === 'GET /api/v1/employees')!;
  t.match(list.op.description, /`read` scope/, 'a description names the scope an operation needs');

  t.same(Object.keys(doc.webhooks).sort(), [...WEBHOOK_EVENT_TYPES].sort(), 'one webhook per catalog event');
  const envelope = doc.components.schemas.WebhookEnvelope;
  t.equal(envelope.discriminator.propertyName, 'type');
  t.same(Object.keys(envelope.discriminator.mapping).sort(), [...WEBHOOK_EVENT_TYPES].sort(), 'the envelope is discriminated on type');
  const approved = doc.webhooks['entry.approved'].post;
  t.ok(
    approved.parameters.some((p: any) => p.name === 'Service-Signature'),
    'deliveries declare their signature header',
  );
  t.match(approved.requestBody.content['application/json'].schema.$ref, /TravelEntryWebhookEnvelope$/);
});
