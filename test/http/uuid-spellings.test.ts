// One spelling of a UUID: 8-4-4-4-12 hexadecimal digits, any case. ajv-formats' `uuid` also takes a
// `urn:uuid:` prefix, which PostgreSQL's uuid type does not: a query filter so spelt reached a
// `::uuid` cast and failed there (session 17's review). Every such value is a 400 keyed by field.
import t from 'tap';
import { startTestApp } from '../helpers/app.js';

t.test('urn:uuid: and other spellings are refused where a UUID is asked for', async (t) => {
  const app = await startTestApp(t);
  const id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
  for (const spelt of [`urn:uuid:${id}`, `{${id}}`, id.replace(/-/g, '')]) {
    const list = await app.request('GET', `/api/v1/travel-entries?employeeId=${encodeURIComponent(spelt)}`);
    t.same([list.status, Object.keys(list.body.errors ?? {})], [400, ['employeeId']], `list filter ${spelt}: ${list.text}`);
    const body = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ursula', lastName: 'Urn', departmentId: spelt } });
    t.same([body.status, Object.keys(body.body.errors ?? {})], [400, ['departmentId']], `body ${spelt}: ${body.text}`);
    const path = await app.request('GET', `/api/v1/employees/${encodeURIComponent(spelt)}`);
    t.equal(path.status, 400, `path ${spelt}: ${path.text}`);
  }
});
