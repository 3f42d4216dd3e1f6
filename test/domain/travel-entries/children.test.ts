import t from 'tap';
import type { TravelEntryCommand } from '../../../src/domain/travel-entries/index.js';
import { TEST_NOW, testContext } from '../../helpers/given-when-then.js';
import { allocation, createCommand, ENTRY_ID, expense, history, perDiem, scenario } from './fixtures.js';

const created = history([createCommand()], testContext({ ids: ['x-1', 'p-1', 'a-1', 'a-2'] }));
const cmd = (c: TravelEntryCommand): TravelEntryCommand => c;
const file = (id: string) => ({ id, fileName: `${id}.pdf`, contentType: 'application/pdf', size: 2048 });

t.test('expenses: add, change, remove', async (t) => {
  const [added] = scenario(t, testContext({ ids: ['x-2'] }))
    .given(created)
    .when(
      cmd({
        type: 'AddExpense',
        data: { entryId: ENTRY_ID, expense: expense({ category: 'Taxi', amount: '25.50', amountInBaseCurrency: '25.50' }) },
      }),
    )
    .then([
      {
        type: 'TravelEntryExpenseAdded',
        data: {
          entryId: ENTRY_ID,
          expense: {
            id: 'x-2',
            date: '2026-03-02',
            category: 'Taxi',
            description: 'Hotel',
            amount: '25.50',
            currencyCode: 'EUR',
            manualExchangeRate: null,
            exchangeRate: null,
            exchangeRateSource: null,
            amountInBaseCurrency: '25.50',
          },
          at: TEST_NOW,
        },
      },
    ]);
  t.ok(added);
  const [changed] = scenario(t)
    .given(created)
    .when(cmd({ type: 'ChangeExpense', data: { entryId: ENTRY_ID, expenseId: 'x-1', expense: expense({ description: undefined }) } }))
    .events();
  t.match(
    changed,
    { type: 'TravelEntryExpenseChanged', data: { expense: { id: 'x-1', description: null } } },
    'a change is a full row replacement',
  );
  scenario(t)
    .given(created)
    .when(cmd({ type: 'RemoveExpense', data: { entryId: ENTRY_ID, expenseId: 'x-1' } }))
    .then([{ type: 'TravelEntryExpenseRemoved', data: { entryId: ENTRY_ID, expenseId: 'x-1', at: TEST_NOW } }]);
  const gone = scenario(t)
    .given(created)
    .when(cmd({ type: 'RemoveExpense', data: { entryId: ENTRY_ID, expenseId: 'x-1' } }))
    .state();
  t.equal(gone.kind === 'Existing' && gone.entry.expenses.length, 0);
});

t.test('expenses: unknown ids are 404, bad fields are keyed without a prefix, unchanged rows record nothing', async (t) => {
  scenario(t)
    .given(created)
    .when(cmd({ type: 'ChangeExpense', data: { entryId: ENTRY_ID, expenseId: 'nope', expense: expense() } }))
    .thenThrows('NOT_FOUND');
  scenario(t)
    .given(created)
    .when(cmd({ type: 'RemoveExpense', data: { entryId: ENTRY_ID, expenseId: 'nope' } }))
    .thenThrows('NOT_FOUND');
  scenario(t)
    .given(created)
    .when(cmd({ type: 'AddExpense', data: { entryId: ENTRY_ID, expense: expense({ amount: '1.999', currencyCode: 'E' }) } }))
    .thenThrows('VALIDATION_FAILED', ['amount', 'currencyCode']);
  scenario(t)
    .given(created)
    .when(cmd({ type: 'ChangeExpense', data: { entryId: ENTRY_ID, expenseId: 'x-1', expense: expense() } }))
    .then([]);
});

// After the fixture's row p-1 (the 2nd 06:00 to the 3rd 20:00): one time is paid once.
const EVENING = { departureTime: '2026-03-03T20:00:00Z', arrivalTime: '2026-03-03T23:00:00Z' };

t.test('per diems: add, change (override cleared when omitted), remove', async (t) => {
  const [added] = scenario(t, testContext({ ids: ['p-2'] }))
    .given(created)
    .when(
      cmd({
        type: 'AddPerDiem',
        data: { entryId: ENTRY_ID, perDiem: perDiem({ ...EVENING, countryCode: 'HR', overrideAmount: '5.00', overrideReason: 'Rule' }) },
      }),
    )
    .events();
  t.match(added, { type: 'TravelEntryPerDiemAdded', data: { perDiem: { id: 'p-2', countryCode: 'HR', overrideAmount: '5.00' } } });
  const withOverride = [...created, ...(added ? [added] : [])];
  const [changed] = scenario(t)
    .given(withOverride)
    .when(
      cmd({ type: 'ChangePerDiem', data: { entryId: ENTRY_ID, perDiemId: 'p-2', perDiem: perDiem({ ...EVENING, countryCode: 'HR' }) } }),
    )
    .events();
  t.match(changed, { type: 'TravelEntryPerDiemChanged', data: { perDiem: { id: 'p-2', overrideAmount: null, overrideReason: null } } });
  scenario(t)
    .given(created)
    .when(cmd({ type: 'RemovePerDiem', data: { entryId: ENTRY_ID, perDiemId: 'p-1' } }))
    .then([{ type: 'TravelEntryPerDiemRemoved', data: { entryId: ENTRY_ID, perDiemId: 'p-1', at: TEST_NOW } }]);
  scenario(t)
    .given(created)
    .when(cmd({ type: 'RemovePerDiem', data: { entryId: ENTRY_ID, perDiemId: 'x-1' } }))
    .thenThrows('NOT_FOUND');
  scenario(t)
    .given(created)
    .when(cmd({ type: 'AddPerDiem', data: { entryId: ENTRY_ID, perDiem: perDiem({ departureTime: 'yesterday' }) } }))
    .thenThrows('VALIDATION_FAILED', ['departureTime']);
});

t.test('allocations: single-row edits keep the total at or below 100', async (t) => {
  scenario(t)
    .given(created)
    .when(cmd({ type: 'AddAllocation', data: { entryId: ENTRY_ID, allocation: allocation('cc-3', '10') } }))
    .thenThrows('VALIDATION_FAILED', ['costCenterAllocations']);
  const [lowered] = scenario(t)
    .given(created)
    .when(cmd({ type: 'ChangeAllocation', data: { entryId: ENTRY_ID, allocationId: 'a-1', allocation: allocation('cc-1', '50') } }))
    .events();
  t.match(lowered, { type: 'TravelEntryAllocationChanged', data: { allocation: { id: 'a-1', costCenterId: 'cc-1', share: '50' } } });
  const afterLowering = [...created, ...(lowered ? [lowered] : [])];
  scenario(t, testContext({ ids: ['a-3'] }))
    .given(afterLowering)
    .when(cmd({ type: 'AddAllocation', data: { entryId: ENTRY_ID, allocation: allocation('cc-3', '10') } }))
    .then([
      {
        type: 'TravelEntryAllocationAdded',
        data: { entryId: ENTRY_ID, allocation: { id: 'a-3', costCenterId: 'cc-3', share: '10' }, at: TEST_NOW },
      },
    ]);
  scenario(t)
    .given(created)
    .when(cmd({ type: 'RemoveAllocation', data: { entryId: ENTRY_ID, allocationId: 'a-2' } }))
    .then([{ type: 'TravelEntryAllocationRemoved', data: { entryId: ENTRY_ID, allocationId: 'a-2', at: TEST_NOW } }]);
  scenario(t)
    .given(created)
    .when(cmd({ type: 'ChangeAllocation', data: { entryId: ENTRY_ID, allocationId: 'a-9', allocation: allocation('cc-1', '50') } }))
    .thenThrows('NOT_FOUND');
});

t.test('allocations: shares are percentages and cost centers are distinct', async (t) => {
  scenario(t)
    .given(created)
    .when(cmd({ type: 'ChangeAllocation', data: { entryId: ENTRY_ID, allocationId: 'a-1', allocation: allocation('cc-1', '0') } }))
    .thenThrows('VALIDATION_FAILED', ['share']);
  scenario(t)
    .given(created)
    .when(cmd({ type: 'ChangeAllocation', data: { entryId: ENTRY_ID, allocationId: 'a-1', allocation: allocation('cc-1', '12.34567') } }))
    .thenThrows('VALIDATION_FAILED', ['share']);
  scenario(t)
    .given(created)
    .when(cmd({ type: 'ChangeAllocation', data: { entryId: ENTRY_ID, allocationId: 'a-1', allocation: allocation('cc-2', '60') } }))
    .thenThrows('VALIDATION_FAILED', ['costCenterId']);
});

t.test('attachments: add up to five per request, remove', async (t) => {
  scenario(t)
    .given(created)
    .when(cmd({ type: 'AddAttachments', data: { entryId: ENTRY_ID, attachments: [file('f-1'), file('f-2')] } }))
    .then([
      {
        type: 'TravelEntryAttachmentsAdded',
        data: {
          entryId: ENTRY_ID,
          attachments: [
            { ...file('f-1'), uploadedAt: TEST_NOW },
            { ...file('f-2'), uploadedAt: TEST_NOW },
          ],
          at: TEST_NOW,
        },
      },
    ]);
  scenario(t)
    .given(created)
    .when(cmd({ type: 'AddAttachments', data: { entryId: ENTRY_ID, attachments: ['1', '2', '3', '4', '5', '6'].map(file) } }))
    .thenThrows('VALIDATION_FAILED', ['attachments']);
  scenario(t)
    .given(created)
    .when(cmd({ type: 'AddAttachments', data: { entryId: ENTRY_ID, attachments: [] } }))
    .thenThrows('VALIDATION_FAILED', ['attachments']);
  scenario(t)
    .given(created)
    .when(
      cmd({ type: 'AddAttachments', data: { entryId: ENTRY_ID, attachments: [{ id: 'f-1', fileName: '', contentType: 'pdf', size: 0 }] } }),
    )
    .thenThrows('VALIDATION_FAILED', ['attachments[0].fileName', 'attachments[0].contentType', 'attachments[0].size']);
  const added = scenario(t)
    .given(created)
    .when(cmd({ type: 'AddAttachments', data: { entryId: ENTRY_ID, attachments: [file('f-1')] } }))
    .events();
  scenario(t)
    .given([...created, ...added])
    .when(cmd({ type: 'AddAttachments', data: { entryId: ENTRY_ID, attachments: [file('f-1')] } }))
    .thenThrows('VALIDATION_FAILED', ['attachments[0].id']);
  scenario(t)
    .given([...created, ...added])
    .when(cmd({ type: 'RemoveAttachment', data: { entryId: ENTRY_ID, attachmentId: 'f-1' } }))
    .then([{ type: 'TravelEntryAttachmentRemoved', data: { entryId: ENTRY_ID, attachmentId: 'f-1', at: TEST_NOW } }]);
  scenario(t)
    .given(created)
    .when(cmd({ type: 'RemoveAttachment', data: { entryId: ENTRY_ID, attachmentId: 'f-1' } }))
    .thenThrows('NOT_FOUND');
});

t.test('child writes on an unknown entry are 404', async (t) => {
  scenario(t)
    .given([])
    .when(cmd({ type: 'AddExpense', data: { entryId: ENTRY_ID, expense: expense() } }))
    .thenThrows('NOT_FOUND');
});
