import t from 'tap';
import type { TravelEntryCommand, TravelEntryDraft } from '../../../src/domain/travel-entries/index.js';
import { TEST_NOW, testContext } from '../../helpers/given-when-then.js';
import { allocation, createCommand, draft, ENTRY_ID, entryOf, expense, history, perDiem, scenario } from './fixtures.js';

const replace = (entry: TravelEntryDraft): TravelEntryCommand => ({ type: 'ReplaceTravelEntry', data: { entryId: ENTRY_ID, entry } });

// The created entry's child ids, as a client would read them back.
const created = history([createCommand()], testContext({ ids: ['x-1', 'p-1', 'a-1', 'a-2'] }));

t.test('omitted optional fields are cleared, place ids included', async (t) => {
  const minimal: TravelEntryDraft = {
    employeeId: draft().employeeId,
    entryDate: '2026-03-01',
    departureDate: '2026-03-02',
    returnDate: '2026-03-04',
    destination: 'Beč',
    travelType: 'Foreign',
    currencyCode: 'EUR',
    advancePaymentInBaseCurrency: '0',
    advancePaymentExchangeRateSource: null,
  };
  const state = scenario(t).given(created).when(replace(minimal)).state();
  if (state.kind !== 'Existing') return t.fail('exists');
  t.match(state.entry, {
    returnDate: '2026-03-04',
    departureLocation: null,
    departureLocationPlaceId: null,
    destinationPlaceId: null,
    destinationCountryCode: 'AT',
    purpose: null,
    report: null,
    preApprovalNote: null,
    vehicleId: null,
    advancePayment: '0',
    advancePaymentDate: '2026-03-01',
    manualAdvanceExchangeRate: null,
    expenses: [],
    perDiems: [],
    costCenterAllocations: [],
    editedAt: TEST_NOW,
  });
});

t.test('stored place ids survive only when sent back', async (t) => {
  const kept = scenario(t)
    .given(created)
    .when(replace(draft({ destinationPlaceId: 'place-wien', departureLocationPlaceId: undefined })))
    .state();
  if (kept.kind !== 'Existing') return t.fail('exists');
  t.equal(kept.entry.destinationPlaceId, 'place-wien');
  t.equal(kept.entry.departureLocationPlaceId, null);
});

t.test('child rows that send back their id keep it; rows without an id are new', async (t) => {
  const [event] = scenario(t, testContext({ ids: ['x-2'] }))
    .given(created)
    .when(
      replace(
        draft({
          expenses: [
            expense({ id: 'x-1', amount: '130.00', amountInBaseCurrency: '130.00' }),
            expense({ category: 'Taxi', amount: '20.00', amountInBaseCurrency: '20.00' }),
          ],
          perDiems: [perDiem({ id: 'p-1' })],
          costCenterAllocations: [allocation('cc-1', '100', 'a-1')],
        }),
      ),
    )
    .events();
  if (event?.type !== 'TravelEntryReplaced') return t.fail('replaced');
  t.strictSame(
    event.data.content.expenses.map((e) => [e.id, e.amount]),
    [
      ['x-1', '130.00'],
      ['x-2', '20.00'],
    ],
  );
  t.strictSame(
    event.data.content.perDiems.map((p) => p.id),
    ['p-1'],
  );
  t.strictSame(event.data.content.costCenterAllocations, [{ id: 'a-1', costCenterId: 'cc-1', share: '100' }]);
});

t.test('an id the entry does not have is an error, not a silent new row', async (t) => {
  scenario(t)
    .given(created)
    .when(replace(draft({ expenses: [expense({ id: 'x-404' })], perDiems: [perDiem({ id: 'x-1' })] })))
    .thenThrows('VALIDATION_FAILED', ['expenses[0].id', 'perDiems[0].id']);
});

t.test('an id sent twice is an error', async (t) => {
  scenario(t)
    .given(created)
    .when(replace(draft({ expenses: [expense({ id: 'x-1' }), expense({ id: 'x-1' })] })))
    .thenThrows('VALIDATION_FAILED', ['expenses[1].id']);
});

t.test("the entry's employee cannot be changed", async (t) => {
  scenario(t)
    .given(created)
    .when(replace(draft({ employeeId: 'someone-else' })))
    .thenThrows('VALIDATION_FAILED', ['employeeId']);
});

t.test('a per-diem override is cleared when the replacement omits it', async (t) => {
  const withOverride = history(
    [createCommand({ perDiems: [perDiem({ overrideAmount: '10.00', overrideReason: 'Short' })] })],
    testContext({ ids: ['x-1', 'p-1', 'a-1', 'a-2'] }),
  );
  const state = scenario(t)
    .given(withOverride)
    .when(replace(draft({ perDiems: [perDiem({ id: 'p-1' })] })))
    .state();
  if (state.kind !== 'Existing') return t.fail('exists');
  t.match(state.entry.perDiems[0], { id: 'p-1', overrideAmount: null, overrideReason: null });
});

t.test('a replacement that changes nothing records nothing', async (t) => {
  const same = draft({
    expenses: [expense({ id: 'x-1' })],
    perDiems: [perDiem({ id: 'p-1' })],
    costCenterAllocations: [allocation('cc-1', '60', 'a-1'), allocation('cc-2', '40', 'a-2')],
  });
  scenario(t).given(created).when(replace(same)).then([]);
});

t.test('a replacement keeps the attachments (they are uploaded separately)', async (t) => {
  const events = scenario(t)
    .given(created)
    .when({
      type: 'AddAttachments',
      data: { entryId: ENTRY_ID, attachments: [{ id: 'f-1', fileName: 'a.pdf', contentType: 'application/pdf', size: 10 }] },
    })
    .events();
  const after = scenario(t)
    .given([...created, ...events])
    .when(replace(draft()))
    .state();
  if (after.kind !== 'Existing') return t.fail('exists');
  t.equal(after.entry.attachments.length, 1);
  t.equal(entryOf([...created, ...events]).attachments[0]?.id, 'f-1');
});

t.test('replace validates like create', async (t) => {
  scenario(t)
    .given(created)
    .when(replace(draft({ costCenterAllocations: [allocation('cc-1', '99.99')] })))
    .thenThrows('VALIDATION_FAILED', ['costCenterAllocations']);
});

t.test('replace of an unknown entry is 404', async (t) => {
  scenario(t).given([]).when(replace(draft())).thenThrows('NOT_FOUND');
});

t.test('an omitted entry date is the stored one; a new one stays in the number year (session 23)', async (t) => {
  const { entryDate: _omitted, ...withoutDate } = draft({ purpose: 'Edited' });
  const kept = scenario(t).given(created).when(replace(withoutDate)).state();
  if (kept.kind !== 'Existing') return t.fail('exists');
  t.same([kept.entry.entryDate, kept.entry.advancePaymentDate], ['2026-03-01', '2026-03-01'], 'not today');
  scenario(t)
    .given(created)
    .when(replace(draft({ entryDate: '2027-01-04' })))
    .thenThrows('VALIDATION_FAILED', ['entryDate']);
  // An entry already dated out of its number's year (an edit before session 23 re-dated it to the
  // day of the edit) stays editable with the date it has.
  const moved = history([createCommand({ entryDate: '2027-01-05' })]);
  const edited = scenario(t).given(moved).when(replace(withoutDate)).state();
  t.equal(edited.kind === 'Existing' && edited.entry.entryDate, '2027-01-05');
});
