// The cost-center decider: create, full replacement (archiving included), delete refused while in use.
import t from 'tap';
import { costCenterDecider, type CostCenterEvent } from '../../../src/domain/cost-centers/index.js';
import { givenWhenThen, TEST_NOW } from '../../helpers/given-when-then.js';

const scenario = givenWhenThen(costCenterDecider);
const id = 'c0000000-0000-4000-8000-000000000001';
const created: CostCenterEvent = {
  type: 'CostCenterCreated',
  data: { costCenterId: id, record: { code: 'CC-1', name: 'Sales', isArchived: false }, at: TEST_NOW },
};

t.test('create trims and defaults isArchived', async (t) => {
  scenario(t)
    .given([])
    .when({ type: 'CreateCostCenter', data: { costCenterId: id, fields: { code: ' CC-1 ', name: 'Sales ' } } })
    .then([created]);
});

t.test('blank code and name are keyed by field', async (t) => {
  scenario(t)
    .given([])
    .when({ type: 'CreateCostCenter', data: { costCenterId: id, fields: { code: ' ', name: '' } } })
    .thenThrows('VALIDATION_FAILED', ['code', 'name']);
});

t.test('a create of an existing id is refused', async (t) => {
  scenario(t)
    .given([created])
    .when({ type: 'CreateCostCenter', data: { costCenterId: id, fields: { code: 'X', name: 'Y' } } })
    .thenThrows('ALREADY_EXISTS');
});

t.test('replacement records the whole record; the same record records nothing', async (t) => {
  scenario(t)
    .given([created])
    .when({ type: 'ReplaceCostCenter', data: { costCenterId: id, fields: { code: 'CC-1', name: 'Sales', isArchived: true } } })
    .then([
      { type: 'CostCenterUpdated', data: { costCenterId: id, record: { code: 'CC-1', name: 'Sales', isArchived: true }, at: TEST_NOW } },
    ]);
  scenario(t)
    .given([created])
    .when({ type: 'ReplaceCostCenter', data: { costCenterId: id, fields: { code: 'CC-1', name: 'Sales' } } })
    .then([], 'no change, no event');
});

t.test('archived cost centers can be restored (archiving is always allowed both ways)', async (t) => {
  const archived: CostCenterEvent = {
    type: 'CostCenterUpdated',
    data: { costCenterId: id, record: { code: 'CC-1', name: 'Sales', isArchived: true }, at: TEST_NOW },
  };
  const state = scenario(t)
    .given([created, archived])
    .when({ type: 'ReplaceCostCenter', data: { costCenterId: id, fields: { code: 'CC-1', name: 'Sales', isArchived: false } } })
    .state();
  t.match(state, { kind: 'Existing', costCenter: { isArchived: false } });
});

t.test('delete while referenced is RESOURCE_IN_USE with the counts; otherwise a tombstone', async (t) => {
  const err = scenario(t)
    .given([created])
    .when({ type: 'DeleteCostCenter', data: { costCenterId: id, references: { travelEntries: 2, departments: 0 } } })
    .thenThrows('RESOURCE_IN_USE');
  t.same(err.extra, { references: { travelEntries: 2 } });
  const state = scenario(t)
    .given([created])
    .when({ type: 'DeleteCostCenter', data: { costCenterId: id, references: { travelEntries: 0, departments: 0 } } })
    .state();
  t.match(state, { kind: 'Deleted', deletedAt: TEST_NOW });
  scenario(t)
    .given([created, { type: 'CostCenterDeleted', data: { costCenterId: id, at: TEST_NOW } }])
    .when({ type: 'ReplaceCostCenter', data: { costCenterId: id, fields: { code: 'CC-1', name: 'Sales' } } })
    .thenThrows('NOT_FOUND');
});

t.test('invisible characters in a new or changed code or name are refused, keyed by field', async (t) => {
  for (const [code, name, keys] of [
    ['\u200b', 'Sales', ['code']],
    ['CC\u200b-1', 'Sales', ['code']],
    ['CC-1', 'Sales\u202e', ['name']],
    ['CC\u0007', 'Sa\u2028les', ['code', 'name']],
  ] as const) {
    scenario(t)
      .given([])
      .when({ type: 'CreateCostCenter', data: { costCenterId: id, fields: { code, name } } })
      .thenThrows('VALIDATION_FAILED', [...keys]);
    scenario(t)
      .given([created])
      .when({ type: 'ReplaceCostCenter', data: { costCenterId: id, fields: { code, name } } })
      .thenThrows('VALIDATION_FAILED', [...keys]);
  }
});

t.test('a record stored with invisible characters can still be archived (its code and name kept)', async (t) => {
  const stored: CostCenterEvent = {
    type: 'CostCenterCreated',
    data: { costCenterId: id, record: { code: 'CC\u200b-1', name: 'Sales\u202e', isArchived: false }, at: TEST_NOW },
  };
  scenario(t)
    .given([stored])
    .when({ type: 'ReplaceCostCenter', data: { costCenterId: id, fields: { code: 'CC\u200b-1', name: 'Sales\u202e', isArchived: true } } })
    .then([
      {
        type: 'CostCenterUpdated',
        data: { costCenterId: id, record: { code: 'CC\u200b-1', name: 'Sales\u202e', isArchived: true }, at: TEST_NOW },
      },
    ]);
  scenario(t)
    .given([stored])
    .when({ type: 'ReplaceCostCenter', data: { costCenterId: id, fields: { code: 'CC\u200b-1', name: 'Sales\u200b' } } })
    .thenThrows('VALIDATION_FAILED', ['name']); // a changed name is checked
});
