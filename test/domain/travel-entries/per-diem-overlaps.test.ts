// One time of a trip is paid once (per-diem-overlaps.ts): per-diem rows of an entry that cover the
// same hours are refused, keyed by the row that overlaps; rows may meet; an entry stored with
// overlapping rows before the rule stays editable; a legacy import is stored as given.
import t from 'tap';
import type { PerDiemDraft, TravelEntryCommand } from '../../../src/domain/travel-entries/index.js';
import { testContext } from '../../helpers/given-when-then.js';
import { createCommand, draft, ENTRY_ID, history, perDiem, scenario } from './fixtures.js';

// Rows as the shell sends them outside an import: with statutory facts (null: the engine's own
// refusal is reported by the shell; here only the times matter).
const row = (departureTime: string, arrivalTime: string, over: Partial<PerDiemDraft> = {}): PerDiemDraft =>
  perDiem({ departureTime, arrivalTime, statutory: null, amount: undefined, ...over });
const DAY = row('2026-03-02T06:00:00Z', '2026-03-02T20:00:00Z');
const LATER = row('2026-03-02T20:00:00Z', '2026-03-03T08:00:00Z'); // meets DAY at 20:00
const INSIDE = row('2026-03-02T10:00:00Z', '2026-03-02T12:00:00Z');
const cmd = (c: TravelEntryCommand): TravelEntryCommand => c;

t.test('a create: a row over another row’s hours is refused, keyed by it; rows that meet pass', async (t) => {
  scenario(t)
    .given([])
    .when(createCommand({ perDiems: [DAY, LATER, INSIDE] }))
    .thenThrows('VALIDATION_FAILED', ['perDiems[2].departureTime']);
  scenario(t)
    .given([])
    .when(createCommand({ perDiems: [DAY, DAY] }))
    .thenThrows('VALIDATION_FAILED', ['perDiems[1].departureTime']); // the same row twice
  const [created] = scenario(t)
    .given([])
    .when(createCommand({ perDiems: [DAY, LATER] }))
    .events();
  t.equal(created?.type, 'TravelEntryCreated', 'rows that meet at 20:00');
});

t.test('a single row added or changed is held against the entry’s other rows', async (t) => {
  const stored = history([createCommand({ perDiems: [DAY, LATER] })], testContext({ ids: ['x-1', 'p-1', 'p-2', 'a-1', 'a-2'] }));
  scenario(t)
    .given(stored)
    .when(cmd({ type: 'AddPerDiem', data: { entryId: ENTRY_ID, perDiem: INSIDE } }))
    .thenThrows('VALIDATION_FAILED', ['departureTime']);
  scenario(t)
    .given(stored)
    .when(
      cmd({
        type: 'ChangePerDiem',
        data: { entryId: ENTRY_ID, perDiemId: 'p-2', perDiem: { ...LATER, departureTime: '2026-03-02T19:00:00Z' } },
      }),
    )
    .thenThrows('VALIDATION_FAILED', ['departureTime']);
  const [moved] = scenario(t)
    .given(stored)
    .when(
      cmd({
        type: 'ChangePerDiem',
        data: { entryId: ENTRY_ID, perDiemId: 'p-1', perDiem: { ...DAY, departureTime: '2026-03-02T05:00:00Z' } },
      }),
    )
    .events();
  t.equal(moved?.type, 'TravelEntryPerDiemChanged', 'a row moved within its own hours and the free ones');
});

t.test('an entry stored with overlapping rows before the rule stays editable', async (t) => {
  // A legacy import is stored as given (no statutory facts): its rows may overlap.
  const imported = history(
    [
      {
        type: 'ImportTravelEntry',
        data: { entryId: ENTRY_ID, entryNumber: 'OLD-1', entry: draft({ perDiems: [perDiem(), perDiem()] }), status: 'Draft' },
      },
    ],
    testContext({ ids: ['x-1', 'p-1', 'p-2', 'a-1', 'a-2'] }),
  );
  t.equal(imported[0]?.type, 'TravelEntryImported', 'imported with two rows over the same hours');
  const [a, b] = [perDiem({ id: 'p-1', statutory: null }), perDiem({ id: 'p-2', statutory: null })];
  const [replaced] = scenario(t)
    .given(imported)
    .when(cmd({ type: 'ReplaceTravelEntry', data: { entryId: ENTRY_ID, entry: draft({ purpose: 'Edited', perDiems: [a, b] }) } }))
    .events();
  t.equal(replaced?.type, 'TravelEntryReplaced', 'a replacement sending both back with their times');
  scenario(t)
    .given(imported)
    .when(
      cmd({
        type: 'ReplaceTravelEntry',
        data: { entryId: ENTRY_ID, entry: draft({ perDiems: [a, b, row('2026-03-02T07:00:00Z', '2026-03-02T09:00:00Z')] }) },
      }),
    )
    .thenThrows('VALIDATION_FAILED', ['perDiems[2].departureTime']); // a new row must fit
  const [meals] = scenario(t)
    .given(imported)
    .when(cmd({ type: 'ChangePerDiem', data: { entryId: ENTRY_ID, perDiemId: 'p-1', perDiem: { ...a, lunchesProvided: 0 } } }))
    .events();
  t.equal(meals?.type, 'TravelEntryPerDiemChanged', 'a change of one row’s meals, its times kept');
});
