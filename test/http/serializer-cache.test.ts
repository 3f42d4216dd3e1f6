// Response serializers compiled once per process (src/http/serializer-cache.ts): a second app, and a
// second route with the same response schema, reuse the compiled serializer; a different schema, shared
// schema or option is a serializer of its own, so a reused one can never be stale.
import t from 'tap';
import { cachedSerializerFactory, compiledSerializerCount } from '../../src/http/serializer-cache.js';
import { startTestApp } from '../helpers/app.js';

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });
const Amount = (type: 'string' | 'integer') => ({ $id: 'TestAmount', type: 'object', properties: { value: { type } } });
const pointsAtAmount = { type: 'object', properties: { amount: { $ref: 'TestAmount#' } } };

t.test('one schema compiles once, for every route and every factory with the same shared schemas', async (t) => {
  const compile = cachedSerializerFactory({ TestAmount: Amount('string') }, {});
  const before = compiledSerializerCount();
  const a = compile(route(pointsAtAmount));
  const b = compile({ ...route({ ...pointsAtAmount }), url: '/y', httpStatus: '404' });
  const c = cachedSerializerFactory({ TestAmount: Amount('string') }, {})(route(pointsAtAmount));
  t.equal(b, a, 'a second route with an equal schema gets the same serializer');
  t.equal(c, a, 'so does a second app with the same shared schemas');
  t.equal(compiledSerializerCount(), before + 1);
  t.equal(a({ amount: { value: 12 } }), '{"amount":{"value":"12"}}');
});

t.test('a different shared schema or option behind the same route schema is another serializer', async (t) => {
  const asString = cachedSerializerFactory({ TestAmount: Amount('string') }, {})(route(pointsAtAmount));
  const asInteger = cachedSerializerFactory({ TestAmount: Amount('integer') }, {})(route(pointsAtAmount));
  t.equal(asString({ amount: { value: 12 } }), '{"amount":{"value":"12"}}');
  t.equal(asInteger({ amount: { value: 12 } }), '{"amount":{"value":12}}', 'the $ref resolves against its own shared schemas');
  const rounded = cachedSerializerFactory({ TestAmount: Amount('integer') }, { rounding: 'floor' })(route(pointsAtAmount));
  t.not(rounded, asInteger, 'serializer options are part of the key');
  t.equal(rounded({ amount: { value: 12.7 } }), '{"amount":{"value":12}}');
});

t.test('a second app in the process compiles no serializer', async (t) => {
  const beforeFirst = compiledSerializerCount();
  const first = await startTestApp(t);
  const afterFirst = compiledSerializerCount();
  t.ok(afterFirst > beforeFirst, 'the first app compiles its serializers through the cache');
  const second = await startTestApp(t);
  t.equal(compiledSerializerCount(), afterFirst, 'every response schema of the second app was compiled by the first');
  for (const app of [first, second]) {
    const res = await app.request('GET', '/api/v1/employees/not-a-uuid');
    t.equal(res.status, 400);
    t.equal(res.body.code, 'VALIDATION_FAILED', 'the problem document is written by the shared serializer');
  }
});
