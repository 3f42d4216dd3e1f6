// Departments over real HTTP: lifecycle, ETag/If-Match, optional code unique among active ones (also
// under concurrent creates), parent and default cost center checked, no cycles, archiving,
// RESOURCE_IN_USE while employees are in it, the employee's departmentId check, tenant isolation.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';

t.test('departments', async (t) => {
  const app = await startTestApp(t);
  const cc = (await app.request('POST', '/api/v1/cost-centers', { body: { code: 'D-CC', name: 'Dept cost center' } })).body.id as string;

  t.test('create, read back, replace (omitted optional fields cleared), delete', async (t) => {
    const created = await app.request('POST', '/api/v1/departments', { body: { name: 'Sales', code: 'SAL', defaultCostCenterId: cc } });
    t.equal(created.status, 201, created.text);
    t.match(created.body, { name: 'Sales', code: 'SAL', parentId: null, defaultCostCenterId: cc, isArchived: false });
    t.equal(created.headers.get('etag'), '"0"');
    const id = created.body.id;
    const read = await app.request('GET', `/api/v1/departments/${id}`);
    t.same([read.status, read.body], [200, created.body]);
    const replaced = await app.request('PUT', `/api/v1/departments/${id}`, {
      body: { name: 'Sales & Marketing' },
      headers: { 'if-match': '"0"' },
    });
    t.same(
      [replaced.status, replaced.body.code, replaced.body.defaultCostCenterId, replaced.headers.get('etag')],
      [200, null, null, '"1"'],
    );
    const stale = await app.request('PUT', `/api/v1/departments/${id}`, { body: { name: 'X' }, headers: { 'if-match': '"0"' } });
    t.equal(stale.status, 412);
    t.equal(
      (await app.request('POST', '/api/v1/departments', { body: { name: 'New sales', code: 'sal' } })).status,
      201,
      'the cleared code is free',
    );
    t.equal((await app.request('DELETE', `/api/v1/departments/${id}`)).status, 204);
    t.equal((await app.request('GET', `/api/v1/departments/${id}`)).status, 404);
  });

  t.test('codes are unique among active departments; departments without a code are many', async (t) => {
    const a = await app.request('POST', '/api/v1/departments', { body: { name: 'A', code: 'DUP' } });
    const b = await app.request('POST', '/api/v1/departments', { body: { name: 'B', code: ' dup' } });
    t.same([b.status, b.body.code, b.body.field], [409, 'CODE_TAKEN', 'code']);
    t.equal((await app.request('POST', '/api/v1/departments', { body: { name: 'No code 1' } })).status, 201);
    t.equal((await app.request('POST', '/api/v1/departments', { body: { name: 'No code 2' } })).status, 201);
    await app.request('PUT', `/api/v1/departments/${a.body.id}`, { body: { name: 'A', code: 'DUP', isArchived: true } });
    t.equal(
      (await app.request('POST', '/api/v1/departments', { body: { name: 'B', code: 'DUP' } })).status,
      201,
      'archiving frees the code',
    );
    const race = await Promise.all(
      [1, 2, 3].map((i) => app.request('POST', '/api/v1/departments', { body: { name: `R${i}`, code: 'RACE' } })),
    );
    t.same(race.map((r) => r.status).sort(), [201, 409, 409], 'concurrent creates of one code: one wins');
  });

  t.test('parent and default cost center must be active records of the company; no cycles', async (t) => {
    const root = (await app.request('POST', '/api/v1/departments', { body: { name: 'Root' } })).body.id;
    const child = (await app.request('POST', '/api/v1/departments', { body: { name: 'Child', parentId: root } })).body.id;
    const grandchild = (await app.request('POST', '/api/v1/departments', { body: { name: 'Grandchild', parentId: child } })).body.id;
    const cycle = await app.request('PUT', `/api/v1/departments/${root}`, { body: { name: 'Root', parentId: grandchild } });
    t.same([cycle.status, Object.keys(cycle.body.errors ?? {})], [400, ['parentId']], cycle.text);
    const self = await app.request('PUT', `/api/v1/departments/${root}`, { body: { name: 'Root', parentId: root } });
    t.same([self.status, Object.keys(self.body.errors ?? {})], [400, ['parentId']]);
    const unknown = await app.request('POST', '/api/v1/departments', {
      body: { name: 'X', parentId: '6f1c1a52-3a0e-4c53-9d4b-0d7b7c1f9a10', defaultCostCenterId: '6f1c1a52-3a0e-4c53-9d4b-0d7b7c1f9a11' },
    });
    t.same([unknown.status, Object.keys(unknown.body.errors ?? {}).sort()], [400, ['defaultCostCenterId', 'parentId']]);
    const inUse = await app.request('DELETE', `/api/v1/departments/${child}`);
    t.same([inUse.status, inUse.body.code, inUse.body.references], [409, 'RESOURCE_IN_USE', { departments: 1 }]);
  });

  t.test('employees name an active department; a department with employees is not deleted', async (t) => {
    const dept = (await app.request('POST', '/api/v1/departments', { body: { name: 'Engineering', code: 'ENG' } })).body.id;
    const archivedDept = (await app.request('POST', '/api/v1/departments', { body: { name: 'Old', isArchived: true } })).body.id;
    const bad = await app.request('POST', '/api/v1/employees', { body: { firstName: 'A', lastName: 'B', departmentId: archivedDept } });
    t.same([bad.status, Object.keys(bad.body.errors ?? {})], [400, ['departmentId']], bad.text);
    const unknown = await app.request('POST', '/api/v1/employees', {
      body: { firstName: 'A', lastName: 'B', departmentId: '6f1c1a52-3a0e-4c53-9d4b-0d7b7c1f9a10' },
    });
    t.same([unknown.status, Object.keys(unknown.body.errors ?? {})], [400, ['departmentId']]);
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const res = await app.request('POST', '/api/v1/employees', { body: { firstName: name, lastName: 'Eng', departmentId: dept } });
      t.equal(res.status, 201, res.text);
      ids.push(res.body.id);
    }
    const moved = await app.request('PUT', `/api/v1/employees/${ids[0]}`, {
      body: { firstName: 'One', lastName: 'Eng', departmentId: archivedDept },
    });
    t.same([moved.status, Object.keys(moved.body.errors ?? {})], [400, ['departmentId']], 'on replacement too');
    const inUse = await app.request('DELETE', `/api/v1/departments/${dept}`);
    t.same([inUse.status, inUse.body.code, inUse.body.references], [409, 'RESOURCE_IN_USE', { employees: 3 }], inUse.text);
    const archived = await app.request('PUT', `/api/v1/departments/${dept}`, {
      body: { name: 'Engineering', code: 'ENG', isArchived: true },
    });
    t.same([archived.status, archived.body.isArchived], [200, true], 'archiving is always allowed');
  });

  t.test('a department whose parent and default cost center were archived can still be archived (found from outside)', async (t) => {
    const parent = (await app.request('POST', '/api/v1/departments', { body: { name: 'Parent-arch' } })).body.id;
    const cc = (await app.request('POST', '/api/v1/cost-centers', { body: { code: 'CC-ARCH', name: 'Arch' } })).body.id;
    const body = { name: 'Child-arch', parentId: parent, defaultCostCenterId: cc };
    const child = await app.request('POST', '/api/v1/departments', { body });
    t.equal(child.status, 201, child.text);
    t.equal((await app.request('PUT', `/api/v1/departments/${parent}`, { body: { name: 'Parent-arch', isArchived: true } })).status, 200);
    t.equal(
      (await app.request('PUT', `/api/v1/cost-centers/${cc}`, { body: { code: 'CC-ARCH', name: 'Arch', isArchived: true } })).status,
      200,
    );
    const edit = await app.request('PUT', `/api/v1/departments/${child.body.id}`, { body: { ...body, name: 'Child renamed' } });
    t.same(
      [edit.status, Object.keys(edit.body.errors ?? {}).sort()],
      [400, ['defaultCostCenterId', 'parentId']],
      'an edit needs them active',
    );
    const other = (await app.request('POST', '/api/v1/departments', { body: { name: 'Other-arch', isArchived: true } })).body.id;
    const swapped = await app.request('PUT', `/api/v1/departments/${child.body.id}`, {
      body: { ...body, parentId: other, isArchived: true },
    });
    t.same([swapped.status, Object.keys(swapped.body.errors ?? {})], [400, ['parentId']], 'never a new archived parent');
    const born = await app.request('POST', '/api/v1/departments', { body: { ...body, name: 'Born archived', isArchived: true } });
    t.same([born.status, Object.keys(born.body.errors ?? {}).sort()], [400, ['defaultCostCenterId', 'parentId']], 'nor on a create');
    const archived = await app.request('PUT', `/api/v1/departments/${child.body.id}`, { body: { ...body, isArchived: true } });
    t.same([archived.status, archived.body.isArchived, archived.body.parentId], [200, true, parent], archived.text);
  });

  t.test('tenant isolation', async (t) => {
    const other = await app.newTenant();
    const mine = (await app.request('POST', '/api/v1/departments', { body: { name: 'Mine', code: 'ISO' } })).body.id;
    t.equal((await app.request('GET', `/api/v1/departments/${mine}`, { key: other.key })).status, 404);
    t.equal((await app.request('PUT', `/api/v1/departments/${mine}`, { key: other.key, body: { name: 'X' } })).status, 404);
    t.equal((await app.request('DELETE', `/api/v1/departments/${mine}`, { key: other.key })).status, 404);
    t.equal((await app.request('GET', '/api/v1/departments', { key: other.key })).body.total, 0);
    t.equal((await app.request('POST', '/api/v1/departments', { key: other.key, body: { name: 'Theirs', code: 'ISO' } })).status, 201);
    const cross = await app.request('POST', '/api/v1/departments', {
      key: other.key,
      body: { name: 'Child', parentId: mine, defaultCostCenterId: cc },
    });
    t.same([cross.status, Object.keys(cross.body.errors ?? {}).sort()], [400, ['defaultCostCenterId', 'parentId']]);
    const emp = await app.request('POST', '/api/v1/employees', {
      key: other.key,
      body: { firstName: 'X', lastName: 'Y', departmentId: mine },
    });
    t.same([emp.status, Object.keys(emp.body.errors ?? {})], [400, ['departmentId']]);
  });
});
