// The transition table of docs/workflow.md, every cell: legal moves record events, illegal ones
// are 409 INVALID_TRANSITION naming the current status; content writes are allowed exactly
// while the entry is unlocked (Draft, ChangesRequested) and 409 ENTRY_LOCKED otherwise.
import t from 'tap';
import { isLegal, type TravelEntryCommand, type WorkflowAction } from '../../../src/domain/travel-entries/index.js';
import {
  approve,
  cancel,
  draft,
  ENTRY_ID,
  entryOf,
  expense,
  payOut,
  perDiem,
  allocation,
  reject,
  requestChanges,
  reversePayout,
  scenario,
  states,
  step,
  submit,
  type StateName,
} from './fixtures.js';

const actions: Record<WorkflowAction, TravelEntryCommand> = {
  submit: submit(step('s1', 'boss')),
  approve: approve('boss'),
  reject: reject('boss'),
  requestChanges: requestChanges('boss'),
  cancel: cancel(),
  payOut: payOut('batch-2'),
  reversePayout: reversePayout('batch-1'),
};

const LEGAL: Record<StateName, WorkflowAction[]> = {
  Draft: ['submit', 'cancel'],
  PendingApproval: ['approve', 'reject', 'requestChanges', 'cancel'],
  ChangesRequested: ['submit', 'cancel'],
  Approved: ['cancel', 'payOut'],
  PaidOut: ['reversePayout'],
  Rejected: [],
  Cancelled: [],
};

const STATUS: Record<StateName, string> = {
  Draft: 'Draft',
  PendingApproval: 'PendingApproval',
  ChangesRequested: 'ChangesRequested',
  Approved: 'Approved',
  PaidOut: 'Approved',
  Rejected: 'Rejected',
  Cancelled: 'Cancelled',
};

for (const [stateName, history] of Object.entries(states) as Array<[StateName, () => ReturnType<typeof states.Draft>]>) {
  t.test(`from ${stateName}`, async (t) => {
    const given = history();
    t.equal(entryOf(given).status, STATUS[stateName], `history ends in ${STATUS[stateName]}`);
    for (const [action, command] of Object.entries(actions) as Array<[WorkflowAction, TravelEntryCommand]>) {
      const legal = LEGAL[stateName].includes(action);
      t.equal(isLegal(entryOf(given), action), legal, `isLegal(${action}) agrees with the table`);
      if (legal) {
        t.ok(scenario(t).given(given).when(command).events().length > 0, `${action}: legal`);
      } else {
        const error = scenario(t).given(given).when(command).thenThrows('INVALID_TRANSITION');
        t.equal(error.status, 409);
        t.equal(error.extra?.currentStatus, STATUS[stateName], `${action}: names the current status`);
        t.match(error.message, STATUS[stateName]);
      }
    }
  });
}

t.test('locked is derived: Draft and ChangesRequested are open, everything else closed', async (t) => {
  const expected: Record<StateName, boolean> = {
    Draft: false,
    ChangesRequested: false,
    PendingApproval: true,
    Approved: true,
    PaidOut: true,
    Rejected: true,
    Cancelled: true,
  };
  for (const [name, locked] of Object.entries(expected) as Array<[StateName, boolean]>) {
    t.equal(entryOf(states[name]()).locked, locked, `${name}: locked=${locked}`);
  }
});

function contentWrites(given: ReturnType<typeof states.Draft>): Record<string, TravelEntryCommand> {
  const entry = entryOf(given);
  const expenseId = entry.expenses[0]?.id ?? '';
  const perDiemId = entry.perDiems[0]?.id ?? '';
  const allocationId = entry.costCenterAllocations[0]?.id ?? '';
  const d = { entryId: ENTRY_ID };
  return {
    replace: { type: 'ReplaceTravelEntry', data: { ...d, entry: draft({ purpose: 'Changed' }) } },
    addExpense: { type: 'AddExpense', data: { ...d, expense: expense({ category: 'Taxi' }) } },
    changeExpense: { type: 'ChangeExpense', data: { ...d, expenseId, expense: expense({ amount: '1.00' }) } },
    removeExpense: { type: 'RemoveExpense', data: { ...d, expenseId } },
    addPerDiem: {
      type: 'AddPerDiem',
      data: { ...d, perDiem: perDiem({ countryCode: 'SI', departureTime: '2026-03-03T20:00:00Z', arrivalTime: '2026-03-03T23:00:00Z' }) },
    },
    changePerDiem: { type: 'ChangePerDiem', data: { ...d, perDiemId, perDiem: perDiem({ amount: '1.00' }) } },
    removePerDiem: { type: 'RemovePerDiem', data: { ...d, perDiemId } },
    addAllocation: { type: 'AddAllocation', data: { ...d, allocation: allocation('cc-9', '0.01') } },
    changeAllocation: { type: 'ChangeAllocation', data: { ...d, allocationId, allocation: allocation('cc-1', '50') } },
    removeAllocation: { type: 'RemoveAllocation', data: { ...d, allocationId } },
    addAttachments: {
      type: 'AddAttachments',
      data: { ...d, attachments: [{ id: 'f-9', fileName: 'x.pdf', contentType: 'application/pdf', size: 1 }] },
    },
  };
}

for (const [stateName, history] of Object.entries(states) as Array<[StateName, () => ReturnType<typeof states.Draft>]>) {
  t.test(`content writes from ${stateName}`, async (t) => {
    const given = history();
    const open = !entryOf(given).locked;
    for (const [name, command] of Object.entries(contentWrites(given))) {
      if (name === 'addAllocation' && open) continue; // the fixture's shares already total 100
      if (open) t.ok(scenario(t).given(given).when(command).events().length > 0, `${name}: allowed`);
      else {
        const error = scenario(t).given(given).when(command).thenThrows('ENTRY_LOCKED');
        t.equal(error.status, 409);
      }
    }
  });
}

t.test('an attachment cannot be removed from a locked entry', async (t) => {
  const given = states.Draft();
  const withFile = [
    ...given,
    ...scenario(t)
      .given(given)
      .when({
        type: 'AddAttachments',
        data: { entryId: ENTRY_ID, attachments: [{ id: 'f-1', fileName: 'a.pdf', contentType: 'application/pdf', size: 1 }] },
      })
      .events(),
  ];
  const submitted = [
    ...withFile,
    ...scenario(t)
      .given(withFile)
      .when(submit(step('s1', 'boss')))
      .events(),
  ];
  scenario(t)
    .given(submitted)
    .when({ type: 'RemoveAttachment', data: { entryId: ENTRY_ID, attachmentId: 'f-1' } })
    .thenThrows('ENTRY_LOCKED');
});
