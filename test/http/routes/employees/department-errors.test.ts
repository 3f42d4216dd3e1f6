// An employee register or replacement with both profile problems and a departmentId that names no
// active department of the company answers one 400 naming every field, over real HTTP.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';

t.test('the department error is merged with the profile errors', async (t) => {
  const app = await startTestApp(t);
  const dept = await app.request('POST', '/api/v1/departments', { body: { name: 'Old', isArchived: true } });
  t.equal(dept.status, 201, dept.text);
  const unknownDept = '6f1c1a52-3a0e-4c53-9d4b-0d7b7c1f9a10';
  const bad = { firstName: 'Ana', lastName: 'Horvat', email: 'not-an-email', bankAccountNumber: 'HR00 0000' };
  const fieldsOf = (res: { body: { errors?: Record<string, string[]> } }) => Object.keys(res.body.errors ?? {}).sort();

  for (const [what, departmentId] of [
    ['archived', dept.body.id as string],
    ['unknown', unknownDept],
  ] as const) {
    const created = await app.request('POST', '/api/v1/employees', { body: { ...bad, departmentId } });
    t.equal(created.status, 400, created.text);
    t.equal(created.body.code, 'VALIDATION_FAILED');
    t.same(fieldsOf(created), ['bankAccountNumber', 'departmentId', 'email'], `register, ${what} department`);
  }

  const employee = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ana', lastName: 'Horvat' } });
  t.equal(employee.status, 201, employee.text);
  const replaced = await app.request('PUT', `/api/v1/employees/${employee.body.id}`, { body: { ...bad, departmentId: unknownDept } });
  t.equal(replaced.status, 400, replaced.text);
  t.same(fieldsOf(replaced), ['bankAccountNumber', 'departmentId', 'email'], 'replace');

  const onlyDept = await app.request('PUT', `/api/v1/employees/${employee.body.id}`, {
    body: { firstName: 'Ana', lastName: 'Horvat', departmentId: unknownDept },
  });
  t.same([onlyDept.status, fieldsOf(onlyDept)], [400, ['departmentId']], 'the department alone');
  const read = await app.request('GET', `/api/v1/employees/${employee.body.id}`);
  t.equal(read.body.departmentId, null, 'nothing was recorded');
});
