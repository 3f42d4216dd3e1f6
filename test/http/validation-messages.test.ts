// Field messages of a refused body over real HTTP: a nullable field's value that breaks its rules is
// told what is wrong with it, not also that it could have been null (found from outside, session 14).
import t from 'tap';
import { startTestApp } from '../helpers/app.js';

t.test('nullable fields name only the rule the value broke', async (t) => {
  const app = await startTestApp(t);
  const res = await app.request('POST', '/api/v1/employees', { body: { firstName: 'A', lastName: 'B', taxId: 'x'.repeat(60) } });
  t.equal(res.status, 400);
  t.same(res.body.errors, { taxId: ['Must NOT have more than 50 characters.'] });
  const wrongType = await app.request('POST', '/api/v1/employees', { body: { firstName: 'A', lastName: 'B', taxId: 5 } });
  t.same(wrongType.body.errors.taxId, ['Must be of type string.'], 'a wrong type: the type it should have');
  const nested = await app.request('POST', '/api/v1/employees', {
    body: { firstName: 'A', lastName: 'B', address: { street: 'x'.repeat(300), foo: 1 } },
  });
  t.equal(nested.status, 400);
  t.same(Object.keys(nested.body.errors).sort(), ['address.foo', 'address.street'], 'a nullable object: only what is wrong inside it');
});
