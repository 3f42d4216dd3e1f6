// Deleting an entry: only a never-submitted draft may go (TravelEntryDeleted); the deleted entry is
// then not found by any command; every other state is 409 INVALID_TRANSITION naming the status.
import t from 'tap';
import {
  travelEntryWebhookSummary,
  type TravelEntryCommand,
  type TravelEntryEvent,
  type TravelEntryState,
} from '../../../src/domain/travel-entries/index.js';
import { TEST_NOW } from '../../helpers/given-when-then.js';
import { cancel, createCommand, ENTRY_ID, expense, history, scenario, states, stateOf, submit, type StateName } from './fixtures.js';

const del: TravelEntryCommand = { type: 'DeleteTravelEntry', data: { entryId: ENTRY_ID } };
const deleted: TravelEntryEvent = { type: 'TravelEntryDeleted', data: { entryId: ENTRY_ID, at: TEST_NOW } };

t.test('a draft is deleted: TravelEntryDeleted, then the state is Deleted with the entry as it was', async (t) => {
  const s = scenario(t).given(states.Draft()).when(del);
  s.then([deleted]);
  const state = s.state();
  t.equal(state.kind, 'Deleted');
  if (state.kind !== 'Deleted') return;
  t.equal(state.deletedAt, TEST_NOW);
  t.equal(state.entry.id, ENTRY_ID);
  t.equal(state.entry.status, 'Draft');
  t.equal(state.entry.editedAt, TEST_NOW, 'the deletion is the last edit (what incremental sync compares)');
  t.strictSame(state.entry.attachments, [], 'a deleted entry lists no attachment (its bytes go with it)');
});

t.test('a draft with attachments and children is deleted too', async (t) => {
  const given = history([
    createCommand(),
    { type: 'AddExpense', data: { entryId: ENTRY_ID, expense: expense({ description: 'Taxi' }) } },
    {
      type: 'AddAttachments',
      data: { entryId: ENTRY_ID, attachments: [{ id: 'att-1', fileName: 'r.pdf', contentType: 'application/pdf', size: 10 }] },
    },
  ]);
  scenario(t).given(given).when(del).then([deleted]);
});

const refused: Array<[StateName, string]> = [
  ['PendingApproval', 'PendingApproval'],
  ['ChangesRequested', 'ChangesRequested'],
  ['Approved', 'Approved'],
  ['PaidOut', 'Approved'],
  ['Rejected', 'Rejected'],
  ['Cancelled', 'Cancelled'],
];
for (const [name, status] of refused) {
  t.test(`${name}: 409 INVALID_TRANSITION naming ${status}`, async (t) => {
    const err = scenario(t).given(states[name]()).when(del).thenThrows('INVALID_TRANSITION');
    t.match(err.message, status);
    t.match(err.extra, { currentStatus: status });
    if (name === 'PaidOut') t.match(err.extra, { isPaidOut: true });
  });
}

t.test('an imported draft dated before 2023 (locked for good) is refused as locked, like every command on it', async (t) => {
  const imported = history([
    {
      type: 'ImportTravelEntry',
      data: { entryId: ENTRY_ID, entryNumber: 'LEG-1', status: 'Draft', entry: { ...createCommandEntry(), entryDate: '2021-06-01' } },
    },
  ]);
  const err = scenario(t).given(imported).when(del).thenThrows('ENTRY_LOCKED');
  t.match(err.message, /imported from before 2023/);
  t.match(err.extra, { currentStatus: 'Draft' });
});

t.test('an imported draft from 2023 on is an ordinary draft: it may be deleted', async (t) => {
  const imported = history([
    { type: 'ImportTravelEntry', data: { entryId: ENTRY_ID, entryNumber: 'LEG-2', status: 'Draft', entry: createCommandEntry() } },
  ]);
  scenario(t).given(imported).when(del).then([deleted]);
});

t.test('a cancelled draft was never submitted but is no longer a draft: refused', async (t) => {
  scenario(t)
    .given(history([createCommand(), cancel()]))
    .when(del)
    .thenThrows('INVALID_TRANSITION');
});

t.test('after the deletion the entry is not found: a second delete and every write are 404', async (t) => {
  const gone = [...states.Draft(), deleted];
  scenario(t).given(gone).when(del).thenThrows('NOT_FOUND');
  scenario(t).given(gone).when(submit()).thenThrows('NOT_FOUND');
  scenario(t).given(gone).when(cancel()).thenThrows('NOT_FOUND');
  scenario(t)
    .given(gone)
    .when({ type: 'AddExpense', data: { entryId: ENTRY_ID, expense: expense() } })
    .thenThrows('NOT_FOUND');
  scenario(t).given(gone).when(createCommand()).thenThrows('ENTRY_ALREADY_EXISTS');
});

t.test('deleting an entry that does not exist is 404', async (t) => {
  scenario(t).given([]).when(del).thenThrows('NOT_FOUND');
});

t.test('a stray event after the deletion is ignored on replay (the state stays Deleted)', async (t) => {
  const state: TravelEntryState = stateOf([...states.Draft(), deleted]);
  t.equal(state.kind, 'Deleted');
  const after = stateOf([
    ...states.Draft(),
    deleted,
    { type: 'TravelEntryCancelled', data: { entryId: ENTRY_ID, previousStatus: 'Draft', reason: null, at: TEST_NOW } },
  ]);
  t.strictSame(after, state);
});

t.test('the webhook summary is produced from the deleted state, with isDeleted true', async (t) => {
  const live = travelEntryWebhookSummary(stateOf(states.Draft()));
  const gone = travelEntryWebhookSummary(stateOf([...states.Draft(), deleted]));
  t.equal(live?.isDeleted, false);
  t.match(gone, { id: ENTRY_ID, status: 0, isDeleted: true, isLocked: false, editedAt: TEST_NOW });
  t.strictSame(Object.keys(gone ?? {}).sort(), Object.keys(live ?? {}).sort(), 'the same fields, nothing more');
  t.equal(travelEntryWebhookSummary({ kind: 'Absent' }), undefined);
});

function createCommandEntry() {
  const c = createCommand();
  if (c.type !== 'CreateTravelEntry') throw new Error('unreachable');
  return c.data.entry;
}
