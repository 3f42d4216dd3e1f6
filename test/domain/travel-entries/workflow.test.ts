import t from 'tap';
import type { TravelEntryCommand } from '../../../src/domain/travel-entries/index.js';
import { TEST_NOW } from '../../helpers/given-when-then.js';
import {
  allocation,
  approve,
  cancel,
  createCommand,
  EMPLOYEE_ID,
  ENTRY_ID,
  entryOf,
  expense,
  history,
  reject,
  requestChanges,
  scenario,
  step,
  submit,
} from './fixtures.js';

const draft = history([createCommand()]);

t.test('no workflow: submit records TravelEntrySubmitted then the distinct TravelEntryAutoApproved', async (t) => {
  const s = scenario(t).given(draft).when(submit());
  s.then([
    { type: 'TravelEntrySubmitted', data: { entryId: ENTRY_ID, steps: [], skippedStepIds: [], at: TEST_NOW } },
    { type: 'TravelEntryAutoApproved', data: { entryId: ENTRY_ID, at: TEST_NOW } },
  ]);
  const state = s.state();
  t.match(state, { kind: 'Existing', entry: { status: 'Approved', locked: true } });
});

t.test('steps without an eligible approver are skipped; none left means auto-approval', async (t) => {
  scenario(t)
    .given(draft)
    .when(submit(step('s1'), step('s2')))
    .then([
      { type: 'TravelEntrySubmitted', data: { entryId: ENTRY_ID, steps: [], skippedStepIds: ['s1', 's2'], at: TEST_NOW } },
      { type: 'TravelEntryAutoApproved', data: { entryId: ENTRY_ID, at: TEST_NOW } },
    ]);
});

t.test("the entry's own employee is never an approver: a step with only them is skipped", async (t) => {
  // In any case: an entry recorded before ids were lower-cased at the door may hold its employee's
  // id upper-case, and the comparison must still find them.
  for (const self of [EMPLOYEE_ID, EMPLOYEE_ID.toUpperCase()]) {
    scenario(t)
      .given(draft)
      .when(submit(step('s1', self), step('s2', self, 'boss', 'boss')))
      .then([
        {
          type: 'TravelEntrySubmitted',
          data: {
            entryId: ENTRY_ID,
            steps: [{ stepId: 's2', name: 'Step s2', approverIds: ['boss'] }],
            skippedStepIds: ['s1'],
            at: TEST_NOW,
          },
        },
      ]);
  }
});

t.test('one step: submit sets PendingApproval (locked), the approval is terminal TravelEntryApproved', async (t) => {
  const pending = [
    ...draft,
    ...scenario(t)
      .given(draft)
      .when(submit(step('s1', 'boss', 'deputy')))
      .events(),
  ];
  t.match(entryOf(pending), { status: 'PendingApproval', locked: true, workflow: { currentStepIndex: 0, approvals: [] } });
  const s = scenario(t).given(pending).when(approve('deputy'));
  s.then([
    {
      type: 'TravelEntryApproved',
      data: { entryId: ENTRY_ID, stepIndex: 0, stepId: 's1', approverId: 'deputy', comment: null, at: TEST_NOW },
    },
  ]);
  t.match(s.state(), {
    entry: { status: 'Approved', locked: true, workflow: { currentStepIndex: 1, approvals: [{ stepId: 's1', approverId: 'deputy' }] } },
  });
});

t.test('two steps: TravelEntryStepApproved, then TravelEntryApproved by the second step', async (t) => {
  const pending = history([createCommand(), submit(step('s1', 'lead'), step('s2', 'cfo'))]);
  scenario(t).given(pending).when(approve('cfo')).thenThrows('NOT_AN_ELIGIBLE_APPROVER');
  const first = scenario(t).given(pending).when(approve('lead'));
  first.then([
    {
      type: 'TravelEntryStepApproved',
      data: { entryId: ENTRY_ID, stepIndex: 0, stepId: 's1', approverId: 'lead', comment: null, at: TEST_NOW },
    },
  ]);
  t.match(first.state(), { entry: { status: 'PendingApproval', workflow: { currentStepIndex: 1 } } });
  const afterFirst = [...pending, ...first.events()];
  scenario(t).given(afterFirst).when(approve('lead')).thenThrows('NOT_AN_ELIGIBLE_APPROVER');
  scenario(t)
    .given(afterFirst)
    .when(approve('cfo'))
    .then([
      {
        type: 'TravelEntryApproved',
        data: { entryId: ENTRY_ID, stepIndex: 1, stepId: 's2', approverId: 'cfo', comment: null, at: TEST_NOW },
      },
    ]);
});

t.test('a skipped middle step does not count: the remaining steps run in order', async (t) => {
  const pending = history([createCommand(), submit(step('s1', 'lead'), step('s2'), step('s3', 'cfo'))]);
  t.strictSame(entryOf(pending).workflow?.skippedStepIds, ['s2']);
  const afterLead = history([createCommand(), submit(step('s1', 'lead'), step('s2'), step('s3', 'cfo')), approve('lead')]);
  scenario(t)
    .given(afterLead)
    .when(approve('cfo'))
    .then([
      {
        type: 'TravelEntryApproved',
        data: { entryId: ENTRY_ID, stepIndex: 1, stepId: 's3', approverId: 'cfo', comment: null, at: TEST_NOW },
      },
    ]);
});

t.test('a wrong approver gets 403 NOT_AN_ELIGIBLE_APPROVER', async (t) => {
  const pending = history([createCommand(), submit(step('s1', 'boss'))]);
  const error = scenario(t).given(pending).when(approve('stranger')).thenThrows('NOT_AN_ELIGIBLE_APPROVER');
  t.equal(error.status, 403);
  t.match(error.extra, { approverId: 'stranger', stepId: 's1' });
  scenario(t).given(pending).when(approve(EMPLOYEE_ID)).thenThrows('NOT_AN_ELIGIBLE_APPROVER');
  scenario(t).given(pending).when(reject('stranger')).thenThrows('NOT_AN_ELIGIBLE_APPROVER');
  scenario(t).given(pending).when(requestChanges('stranger')).thenThrows('NOT_AN_ELIGIBLE_APPROVER');
});

t.test('an approver archived or deactivated since submission can no longer decide', async (t) => {
  const pending = history([createCommand(), submit(step('s1', 'boss'))]);
  scenario(t).given(pending).when(approve('boss', false)).thenThrows('NOT_AN_ELIGIBLE_APPROVER');
});

t.test('the approver list is the snapshot taken at submission', async (t) => {
  const pending = history([createCommand(), submit(step('s1', 'boss'))]);
  t.strictSame(entryOf(pending).workflow?.steps, [{ stepId: 's1', name: 'Step s1', approverIds: ['boss'] }]);
  const comment: TravelEntryCommand = {
    type: 'ApproveTravelEntry',
    data: { entryId: ENTRY_ID, approverId: 'boss', approverIsActiveEmployee: true, comment: ' Fine ' },
  };
  scenario(t)
    .given(pending)
    .when(comment)
    .then([
      {
        type: 'TravelEntryApproved',
        data: { entryId: ENTRY_ID, stepIndex: 0, stepId: 's1', approverId: 'boss', comment: 'Fine', at: TEST_NOW },
      },
    ]);
});

t.test('reject is terminal and records the step, approver and reason', async (t) => {
  const pending = history([createCommand(), submit(step('s1', 'boss'))]);
  const s = scenario(t).given(pending).when(reject('boss', 'Not a business trip'));
  s.then([
    {
      type: 'TravelEntryRejected',
      data: { entryId: ENTRY_ID, stepIndex: 0, stepId: 's1', approverId: 'boss', reason: 'Not a business trip', at: TEST_NOW },
    },
  ]);
  t.match(s.state(), { entry: { status: 'Rejected', locked: true, statusReason: 'Not a business trip' } });
});

t.test('request-changes unlocks the entry; it is edited and resubmitted with a fresh snapshot', async (t) => {
  const sentBack = history([
    createCommand(),
    submit(step('s1', 'lead'), step('s2', 'cfo')),
    approve('lead'),
    requestChanges('cfo', 'Receipt missing'),
  ]);
  t.match(entryOf(sentBack), { status: 'ChangesRequested', locked: false, statusReason: 'Receipt missing' });
  const edited = [
    ...sentBack,
    ...scenario(t)
      .given(sentBack)
      .when({ type: 'AddExpense', data: { entryId: ENTRY_ID, expense: expense({ category: 'Receipt' }) } })
      .events(),
  ];
  const resubmitted = scenario(t)
    .given(edited)
    .when(submit(step('s1', 'lead2')));
  t.match(resubmitted.state(), {
    entry: {
      status: 'PendingApproval',
      statusReason: null,
      workflow: { steps: [{ stepId: 's1', approverIds: ['lead2'] }], currentStepIndex: 0, approvals: [] },
    },
  });
});

t.test('submit requires the cost-center shares to add up to 100 when any exist', async (t) => {
  const partial = history([
    createCommand(),
    { type: 'RemoveAllocation', data: { entryId: ENTRY_ID, allocationId: entryOf(draft).costCenterAllocations[1]?.id ?? '' } },
  ]);
  t.equal(entryOf(partial).costCenterAllocations.length, 1);
  scenario(t).given(partial).when(submit()).thenThrows('VALIDATION_FAILED', ['costCenterAllocations']);
  const none = history([createCommand({ costCenterAllocations: [] })]);
  t.equal(scenario(t).given(none).when(submit()).events().length, 2);
  const full = history([createCommand({ costCenterAllocations: [allocation('cc', '100')] })]);
  t.equal(scenario(t).given(full).when(submit()).events().length, 2);
});

t.test('cancel records the previous status and reason', async (t) => {
  scenario(t)
    .given(draft)
    .when(cancel('Trip called off'))
    .then([
      { type: 'TravelEntryCancelled', data: { entryId: ENTRY_ID, previousStatus: 'Draft', reason: 'Trip called off', at: TEST_NOW } },
    ]);
  const pending = history([createCommand(), submit(step('s1', 'boss'))]);
  t.match(scenario(t).given(pending).when(cancel()).events(), [{ data: { previousStatus: 'PendingApproval', reason: null } }]);
  t.match(scenario(t).given(pending).when(cancel()).state(), { entry: { status: 'Cancelled', locked: true } });
});

t.test('workflow commands on an unknown entry are 404', async (t) => {
  scenario(t).given([]).when(submit()).thenThrows('NOT_FOUND');
  scenario(t).given([]).when(approve('boss')).thenThrows('NOT_FOUND');
});
