// The department decider: create with looked-up references, no parent cycles, replacement, delete.
import t from 'tap';
import { departmentDecider, type DepartmentEvent, type DepartmentFacts } from '../../../src/domain/departments/index.js';
import { givenWhenThen, TEST_NOW } from '../../helpers/given-when-then.js';

const scenario = givenWhenThen(departmentDecider);
const id = 'd0000000-0000-4000-8000-000000000001';
const parent = 'd0000000-0000-4000-8000-000000000002';
const none: DepartmentFacts = { lookupErrors: {}, parentChain: [] };
const record = { name: 'Sales', code: null, parentId: null, defaultCostCenterId: null, isArchived: false };
const created: DepartmentEvent = { type: 'DepartmentCreated', data: { departmentId: id, record, at: TEST_NOW } };

t.test('create: optional fields default to null, a blank code is none', async (t) => {
  scenario(t)
    .given([])
    .when({ type: 'CreateDepartment', data: { departmentId: id, fields: { name: ' Sales', code: '  ' }, facts: none } })
    .then([created]);
});

t.test('lookup problems and core problems are one 400', async (t) => {
  scenario(t)
    .given([])
    .when({
      type: 'CreateDepartment',
      data: {
        departmentId: id,
        fields: { name: ' ', parentId: parent },
        facts: { lookupErrors: { parentId: ['No such.'] }, parentChain: [] },
      },
    })
    .thenThrows('VALIDATION_FAILED', ['name', 'parentId']);
});

t.test('no cycles: not its own parent, not the parent of an ancestor', async (t) => {
  scenario(t)
    .given([created])
    .when({ type: 'ReplaceDepartment', data: { departmentId: id, fields: { name: 'Sales', parentId: id }, facts: none } })
    .thenThrows('VALIDATION_FAILED', ['parentId']);
  scenario(t)
    .given([created])
    .when({
      type: 'ReplaceDepartment',
      data: { departmentId: id, fields: { name: 'Sales', parentId: parent }, facts: { lookupErrors: {}, parentChain: [parent, id] } },
    })
    .thenThrows('VALIDATION_FAILED', ['parentId']);
  scenario(t)
    .given([created])
    .when({
      type: 'ReplaceDepartment',
      data: { departmentId: id, fields: { name: 'Sales', parentId: parent }, facts: { lookupErrors: {}, parentChain: [parent] } },
    })
    .then([{ type: 'DepartmentUpdated', data: { departmentId: id, record: { ...record, parentId: parent }, at: TEST_NOW } }]);
});

t.test('replacement clears omitted optional fields', async (t) => {
  const full: DepartmentEvent = {
    type: 'DepartmentCreated',
    data: { departmentId: id, record: { ...record, code: 'SAL', parentId: parent, defaultCostCenterId: parent }, at: TEST_NOW },
  };
  scenario(t)
    .given([full])
    .when({ type: 'ReplaceDepartment', data: { departmentId: id, fields: { name: 'Sales' }, facts: none } })
    .then([{ type: 'DepartmentUpdated', data: { departmentId: id, record, at: TEST_NOW } }]);
});

t.test('delete while employees are in it is RESOURCE_IN_USE naming how many', async (t) => {
  const err = scenario(t)
    .given([created])
    .when({ type: 'DeleteDepartment', data: { departmentId: id, references: { employees: 3, departments: 0 } } })
    .thenThrows('RESOURCE_IN_USE');
  t.same(err.extra, { references: { employees: 3 } });
  scenario(t)
    .given([created])
    .when({ type: 'DeleteDepartment', data: { departmentId: id, references: { employees: 0, departments: 0 } } })
    .then([{ type: 'DepartmentDeleted', data: { departmentId: id, at: TEST_NOW } }]);
});

t.test('invisible characters in a new or changed name or code are refused, keyed by field', async (t) => {
  for (const [name, code, keys] of [
    ['\u200b', null, ['name']],
    ['Sales\u202e', 'D-1', ['name']],
    ['Sales', 'D\u00ad1', ['code']],
    ['Sa\u0000les', 'D\u2029X', ['code', 'name']],
  ] as const) {
    scenario(t)
      .given([])
      .when({ type: 'CreateDepartment', data: { departmentId: id, fields: { name, code }, facts: none } })
      .thenThrows('VALIDATION_FAILED', [...keys]);
    scenario(t)
      .given([created])
      .when({ type: 'ReplaceDepartment', data: { departmentId: id, fields: { name, code }, facts: none } })
      .thenThrows('VALIDATION_FAILED', [...keys]);
  }
});

t.test('a department stored with invisible characters can still be archived (its name and code kept)', async (t) => {
  const odd = { ...record, name: 'Sales\u200b', code: 'D\u202e1' };
  const stored: DepartmentEvent = { type: 'DepartmentCreated', data: { departmentId: id, record: odd, at: TEST_NOW } };
  scenario(t)
    .given([stored])
    .when({
      type: 'ReplaceDepartment',
      data: { departmentId: id, fields: { name: odd.name, code: odd.code, isArchived: true }, facts: none },
    })
    .then([{ type: 'DepartmentUpdated', data: { departmentId: id, record: { ...odd, isArchived: true }, at: TEST_NOW } }]);
  scenario(t)
    .given([stored])
    .when({ type: 'ReplaceDepartment', data: { departmentId: id, fields: { name: odd.name, code: 'D\u200b2' }, facts: none } })
    .thenThrows('VALIDATION_FAILED', ['code']); // a changed code is checked
});
