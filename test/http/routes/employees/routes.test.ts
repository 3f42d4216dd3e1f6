// Employees over real HTTP: lifecycle, full replacement, archive, list filters, ETag/If-Match,
// Idempotency-Key, access records and tenant isolation.
import t from 'tap';
import { setCustomFields } from '../../../../src/tenancy/tenants.js';
import { startTestApp } from '../../../helpers/app.js';

const ana = {
  firstName: 'Ana',
  lastName: 'Horvat',
  email: 'ana@example.hr',
  phone: '+385 1 2345 678',
  address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', countryCode: 'HR' },
  taxId: '12345678903',
  bankAccountNumber: 'HR12 1001 0051 8630 0016 0',
  bankIdentifierCode: 'ZABAHR2X',
  position: 'Engineer',
  isAccountOwner: false,
};

t.test('employees', async (t) => {
  const app = await startTestApp(t);

  t.test('register, read back at once, replace, archive', async (t) => {
    const created = await app.request('POST', '/api/v1/employees', { body: ana });
    t.equal(created.status, 201, created.text);
    t.match(created.body, {
      id: /^[0-9a-f-]{36}$/,
      firstName: 'Ana',
      status: 'Active',
      residency: 'Resident',
      isArchived: false,
      bankAccountNumber: 'HR1210010051863000160',
    });
    t.equal(created.headers.get('etag'), '"0"');
    t.equal(created.headers.get('location'), `/api/v1/employees/${created.body.id}`);
    const id = created.body.id;

    const read = await app.request('GET', `/api/v1/employees/${id}`);
    t.equal(read.status, 200, 'read-your-writes: the GET sees the new employee');
    t.same(read.body, created.body);
    t.equal(read.headers.get('etag'), '"0"');

    const replaced = await app.request('PUT', `/api/v1/employees/${id}`, {
      body: { firstName: 'Ana', lastName: 'Kovač', residency: 'NonResident' },
      headers: { 'if-match': '"0"' },
    });
    t.equal(replaced.status, 200, replaced.text);
    t.match(
      replaced.body,
      { lastName: 'Kovač', residency: 'NonResident', email: null, address: null, bankAccountNumber: null },
      'omitted optional fields are cleared',
    );
    t.equal(replaced.headers.get('etag'), '"1"');

    const stale = await app.request('PUT', `/api/v1/employees/${id}`, {
      body: { firstName: 'X', lastName: 'Y' },
      headers: { 'if-match': '"0"' },
    });
    t.same([stale.status, stale.body.code], [412, 'PRECONDITION_FAILED']);

    const archived = await app.request('POST', `/api/v1/employees/${id}/archive`);
    t.same([archived.status, archived.body.isArchived], [200, true]);
    const after = await app.request('PUT', `/api/v1/employees/${id}`, { body: { firstName: 'X', lastName: 'Y' } });
    t.same([after.status, after.body.code], [409, 'EMPLOYEE_ARCHIVED']);
  });

  t.test('validation errors are keyed by field', async (t) => {
    const res = await app.request('POST', '/api/v1/employees', {
      body: { ...ana, bankAccountNumber: 'HR12 0000 0000 0000 0000 0', email: 'nope' },
    });
    t.equal(res.status, 400);
    t.equal(res.body.code, 'VALIDATION_FAILED');
    t.ok(res.body.errors.bankAccountNumber, 'IBAN checksum');
    const schema = await app.request('POST', '/api/v1/employees', { body: { firstName: 1, lastName: 'X', nickname: 'y' } });
    t.equal(schema.status, 400);
    t.ok(schema.body.errors.firstName && schema.body.errors.nickname, JSON.stringify(schema.body.errors));
  });

  t.test('custom fields follow the tenant definitions', async (t) => {
    await setCustomFields(app.rt.handle.db, app.tenant.id, [
      { key: 'costCode', type: 'text', required: true },
      { key: 'grade', type: 'number', required: false },
    ]);
    const missing = await app.request('POST', '/api/v1/employees', { body: { firstName: 'B', lastName: 'C' } });
    t.same(missing.body.errors, { 'customFields.costCode': ['Required.'] });
    const wrong = await app.request('POST', '/api/v1/employees', {
      body: { firstName: 'B', lastName: 'C', customFields: { costCode: 'X1', grade: 'high', shoe: 42 } },
    });
    t.ok(wrong.body.errors['customFields.grade'] && wrong.body.errors['customFields.shoe']);
    const ok = await app.request('POST', '/api/v1/employees', {
      body: { firstName: 'B', lastName: 'C', customFields: { costCode: 'X1', grade: 3 } },
    });
    t.same([ok.status, ok.body.customFields], [201, { costCode: 'X1', grade: 3 }]);
    await setCustomFields(app.rt.handle.db, app.tenant.id, []);
  });

  t.test('list: pages, filters, stable order, total', async (t) => {
    const other = await app.newTenant();
    for (let i = 0; i < 3; i++)
      await app.request('POST', '/api/v1/employees', { body: { firstName: `P${i}`, lastName: 'List' }, key: other.key });
    const page1 = await app.request('GET', '/api/v1/employees?page=1&pageSize=2', { key: other.key });
    t.same([page1.status, page1.body.total, page1.body.items.length, page1.body.pageSize], [200, 3, 2, 2]);
    const page2 = await app.request('GET', '/api/v1/employees?page=2&pageSize=2', { key: other.key });
    t.same(
      page2.body.items.map((e: { firstName: string }) => e.firstName),
      ['P2'],
    );
    const since = await app.request(
      'GET',
      `/api/v1/employees?updatedSince=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      { key: other.key },
    );
    t.same(since.body.total, 0);
    const archivedOnly = await app.request('GET', '/api/v1/employees?isArchived=true', { key: other.key });
    t.same(archivedOnly.body.total, 0);
    t.equal((await app.request('GET', '/api/v1/employees?pageSize=201', { key: other.key })).status, 400);
  });

  t.test("another tenant's employee is a 404, for reads and writes", async (t) => {
    const mine = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Mine', lastName: 'Only' } });
    const b = await app.newTenant();
    t.equal((await app.request('GET', `/api/v1/employees/${mine.body.id}`, { key: b.key })).status, 404);
    t.equal(
      (await app.request('PUT', `/api/v1/employees/${mine.body.id}`, { key: b.key, body: { firstName: 'X', lastName: 'Y' } })).status,
      404,
    );
    t.equal((await app.request('POST', `/api/v1/employees/${mine.body.id}/archive`, { key: b.key })).status, 404);
    t.notOk((await app.request('GET', '/api/v1/employees', { key: b.key })).body.items.some((e: { id: string }) => e.id === mine.body.id));
  });

  t.test('Idempotency-Key replays the first response; another body is 422', async (t) => {
    const headers = { 'idempotency-key': 'emp-create-1' };
    const first = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Idem', lastName: 'Potent' }, headers });
    const again = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Idem', lastName: 'Potent' }, headers });
    t.same([again.status, again.body.id, again.headers.get('idempotent-replayed')], [201, first.body.id, 'true']);
    t.equal(again.headers.get('etag'), first.headers.get('etag'));
    // The same body with its keys in another order (as another client library may write it) is the same request.
    const reordered = await app.request('POST', '/api/v1/employees', { body: { lastName: 'Potent', firstName: 'Idem' }, headers });
    t.same(
      [reordered.status, reordered.body.id, reordered.headers.get('idempotent-replayed')],
      [201, first.body.id, 'true'],
      'keys reordered',
    );
    const other = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Else', lastName: 'Potent' }, headers });
    t.same([other.status, other.body.code], [422, 'IDEMPOTENCY_KEY_REUSED']);
  });

  t.test('reads of personal data are recorded per key', async (t) => {
    const e = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Logged', lastName: 'Read' } });
    const read = await app.request('GET', `/api/v1/employees/${e.body.id}`, { headers: { 'x-request-id': 'access-trace-1' } });
    t.equal(read.status, 200);
    const rows = await app.rt.handle.db.selectFrom('access_log').selectAll().where('request_id', '=', 'access-trace-1').execute();
    t.match(rows, [
      { api_key_id: app.tenant.apiKeyId, tenant_id: app.tenant.id, resource_type: 'employee', resource_id: e.body.id, method: 'GET' },
    ]);
  });

  // Concurrent reads share inserts (group commit), yet each response still leaves only after its
  // own record is stored: every one of 40 simultaneous reads is in the log the moment it returns.
  t.test('concurrent reads are each recorded before their response leaves', async (t) => {
    const e = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Many', lastName: 'Readers' } });
    const ids = Array.from({ length: 40 }, (_, i) => `access-burst-${i}-${e.body.id}`);
    const logged = await Promise.all(
      ids.map(async (id) => {
        const read = await app.request('GET', `/api/v1/employees/${e.body.id}`, { headers: { 'x-request-id': id } });
        const row = await app.rt.handle.db.selectFrom('access_log').select('resource_id').where('request_id', '=', id).executeTakeFirst();
        return [read.status, row?.resource_id];
      }),
    );
    t.same(
      logged,
      ids.map(() => [200, e.body.id]),
    );
  });
});
