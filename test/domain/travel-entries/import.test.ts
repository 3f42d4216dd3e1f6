import t from 'tap';
import type { TravelEntryCommand } from '../../../src/domain/travel-entries/index.js';
import { TEST_NOW } from '../../helpers/given-when-then.js';
import { approve, cancel, draft, ENTRY_ID, entryOf, expense, payOut, scenario, submit } from './fixtures.js';

const importCommand = (entryDate: string, status = 'Draft', paidOutAt?: string): TravelEntryCommand => ({
  type: 'ImportTravelEntry',
  data: {
    entryId: ENTRY_ID,
    entryNumber: 'PN-2019/17',
    entry: draft({ entryDate, departureDate: entryDate, returnDate: entryDate }),
    status,
    paidOutAt,
  },
});

t.test('an entry dated before 2023 is imported locked and keeps its legacy number and status', async (t) => {
  const s = scenario(t)
    .given([])
    .when(importCommand('2022-12-31', 'Approved', '2023-01-15T10:00:00Z'));
  const [event] = s.events();
  t.match(event, {
    type: 'TravelEntryImported',
    data: { entryNumber: 'PN-2019/17', status: 'Approved', paidOutAt: '2023-01-15T10:00:00Z', locked: true, at: TEST_NOW },
  });
  t.match(s.state(), {
    entry: { status: 'Approved', locked: true, importLocked: true, isPaidOut: true, paidOutAt: '2023-01-15T10:00:00Z' },
  });
});

t.test('an import-locked entry accepts no command at all: 409 ENTRY_LOCKED', async (t) => {
  const imported = scenario(t).given([]).when(importCommand('2021-06-01')).events();
  t.match(entryOf(imported), { status: 'Draft', locked: true });
  const commands: TravelEntryCommand[] = [
    { type: 'ReplaceTravelEntry', data: { entryId: ENTRY_ID, entry: draft() } },
    { type: 'AddExpense', data: { entryId: ENTRY_ID, expense: expense() } },
    submit(),
    cancel(),
    approve('boss'),
    payOut(),
  ];
  for (const command of commands) scenario(t).given(imported).when(command).thenThrows('ENTRY_LOCKED');
});

t.test('an entry dated 2023 or later is imported unlocked and follows the ordinary rules', async (t) => {
  const imported = scenario(t).given([]).when(importCommand('2023-01-01')).events();
  t.match(entryOf(imported), { status: 'Draft', locked: false, importLocked: false });
  t.equal(scenario(t).given(imported).when(submit()).events().length, 2);
  const approved = scenario(t).given([]).when(importCommand('2024-05-05', 'Approved')).events();
  t.match(entryOf(approved), { status: 'Approved', locked: true, isPaidOut: false });
  t.equal(scenario(t).given(approved).when(payOut()).events().length, 1, 'an approved import can be paid out');
});

t.test('import validation: status allow-list, paidOutAt only when Approved', async (t) => {
  scenario(t).given([]).when(importCommand('2020-01-01', 'PendingApproval')).thenThrows('VALIDATION_FAILED', ['status']);
  scenario(t)
    .given([])
    .when(importCommand('2020-01-01', 'Draft', '2020-02-01T00:00:00Z'))
    .thenThrows('VALIDATION_FAILED', ['paidOutAt']);
  scenario(t)
    .given([])
    .when(importCommand('2020-01-01', 'Approved', 'yesterday'))
    .thenThrows('VALIDATION_FAILED', ['paidOutAt']);
  scenario(t)
    .given([])
    .when({ type: 'ImportTravelEntry', data: { entryId: ENTRY_ID, entryNumber: ' ', entry: draft(), status: 'Draft' } })
    .thenThrows('VALIDATION_FAILED', ['entryNumber']);
});

t.test('import onto an existing entry is a conflict', async (t) => {
  const imported = scenario(t).given([]).when(importCommand('2021-06-01')).events();
  scenario(t).given(imported).when(importCommand('2021-06-01')).thenThrows('ENTRY_ALREADY_EXISTS');
});

t.test("imported entry numbers: YYYY-NNNNN of the entry date's year, or the legacy pattern; nothing else", async (t) => {
  const importing = (entryNumber: string, entryDate = '2026-03-02'): TravelEntryCommand => ({
    type: 'ImportTravelEntry',
    data: { entryId: ENTRY_ID, entryNumber, entry: draft({ entryDate, departureDate: entryDate, returnDate: entryDate }), status: 'Draft' },
  });
  for (const ok of ['2026-00001', '2026-00042', '2026-123456', 'LEG-2021-7', 'PN-2019/17', 'HR.2020.0042', 'a_1', 'X']) {
    const [event] = scenario(t).given([]).when(importing(ok)).events();
    t.match(event, { type: 'TravelEntryImported', data: { entryNumber: ok } }, `${JSON.stringify(ok)} is accepted`);
  }
  const refused: [string, string][] = [
    ['2025-00001', "the year is not the entry date's"],
    ['2027-00001', "the year is not the entry date's"],
    ['2026-00000', 'sequence zero'],
    ['2026-02-30', 'a date (and an impossible one)'],
    ['2026-0001', 'four digits'],
    ['<script>alert(1)</script>', 'markup'],
    ['LEG-<b>1</b>', 'markup inside'],
    ['2026-\u202e00042', 'a bidi override'],
    ['LEG\u202e-1', 'a bidi override in a legacy number'],
    ['LEG-\u200b1', 'a zero-width space'],
    ['LEG-1\u0007', 'a control character'],
    ['LEG 1', 'a space inside'],
    ['LEG--1', 'an empty group'],
    ['-LEG', 'a leading separator'],
    ['ЛЕГ-1', 'Cyrillic lookalikes'],
    ['L'.repeat(41), 'over 40 characters'],
  ];
  for (const [entryNumber, why] of refused) {
    scenario(t).given([]).when(importing(entryNumber)).thenThrows('VALIDATION_FAILED', ['entryNumber']);
    t.pass(`refused: ${why}`);
  }
  // The year is the entry date's, which defaults to today when omitted (as for a created entry).
  const undated: TravelEntryCommand = {
    type: 'ImportTravelEntry',
    data: { entryId: ENTRY_ID, entryNumber: `${TEST_NOW.slice(0, 4)}-00007`, entry: draft({ entryDate: null }), status: 'Draft' },
  };
  t.equal(scenario(t).given([]).when(undated).events().length, 1, "an undated import takes today's year");
});
