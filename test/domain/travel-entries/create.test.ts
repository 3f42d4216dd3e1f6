import t from 'tap';
import { TEST_NOW, testContext } from '../../helpers/given-when-then.js';
import { allocation, createCommand, draft, ENTRY_ID, ENTRY_NUMBER, EMPLOYEE_ID, expense, perDiem, scenario, stateOf } from './fixtures.js';
import type { TravelEntryCommand } from '../../../src/domain/travel-entries/index.js';

t.test('create records the whole entry with nested rows and fresh child ids', async (t) => {
  scenario(t, testContext({ ids: ['x-1', 'p-1', 'a-1', 'a-2'] }))
    .given([])
    .when(createCommand())
    .then([
      {
        type: 'TravelEntryCreated',
        data: {
          entryId: ENTRY_ID,
          entryNumber: ENTRY_NUMBER,
          employeeId: EMPLOYEE_ID,
          content: {
            entryDate: '2026-03-01',
            departureDate: '2026-03-02',
            returnDate: '2026-03-03',
            departureLocation: 'Zagreb',
            departureLocationPlaceId: 'place-zg',
            destination: 'Beč',
            destinationPlaceId: 'place-wien',
            destinationCountryCode: 'AT',
            travelType: 'Foreign',
            purpose: 'Customer workshop',
            report: 'Went well',
            preApprovalNote: 'Approved by phone',
            vehicleId: 'veh-1',
            advancePayment: '200.00',
            currencyCode: 'EUR',
            advancePaymentDate: '2026-03-01',
            manualAdvanceExchangeRate: null,
            advancePaymentInBaseCurrency: '200.00',
            advancePaymentExchangeRateSource: null,
            expenses: [
              {
                id: 'x-1',
                date: '2026-03-02',
                category: 'Accommodation',
                description: 'Hotel',
                amount: '120.00',
                currencyCode: 'EUR',
                manualExchangeRate: null,
                exchangeRate: null,
                exchangeRateSource: null,
                amountInBaseCurrency: '120.00',
              },
            ],
            perDiems: [
              {
                id: 'p-1',
                countryCode: 'AT',
                departureTime: '2026-03-02T06:00:00Z',
                arrivalTime: '2026-03-03T20:00:00Z',
                breakfastsProvided: 1,
                lunchesProvided: 1,
                dinnersProvided: 0,
                mealsProvided: 1,
                mealsProvidedAllocation: null,
                amount: '70.00',
                currencyCode: 'EUR',
                overrideAmount: null,
                overrideReason: null,
                manualExchangeRate: null,
                exchangeRateSource: null,
              },
            ],
            costCenterAllocations: [
              { id: 'a-1', costCenterId: 'cc-1', share: '60' },
              { id: 'a-2', costCenterId: 'cc-2', share: '40' },
            ],
          },
          attachments: [],
          at: TEST_NOW,
        },
      },
    ]);
});

t.test('the created entry is an unlocked Draft with audit timestamps', async (t) => {
  const state = scenario(t).given([]).when(createCommand()).state();
  if (state.kind !== 'Existing') return t.fail('exists');
  t.match(state.entry, {
    status: 'Draft',
    locked: false,
    isPaidOut: false,
    paidOutAt: null,
    createdAt: TEST_NOW,
    editedAt: TEST_NOW,
    workflow: null,
  });
});

t.test('entryDate defaults to the command date and advancePaymentDate to entryDate', async (t) => {
  const [event] = scenario(t)
    .given([])
    .when(createCommand({ entryDate: undefined, advancePaymentDate: undefined }))
    .events();
  t.match(event?.data, { content: { entryDate: '2026-03-10', advancePaymentDate: '2026-03-10' } });
  const [other] = scenario(t)
    .given([])
    .when(createCommand({ advancePaymentDate: '2026-02-27' }))
    .events();
  t.match(other?.data, { content: { entryDate: '2026-03-01', advancePaymentDate: '2026-02-27' } });
});

t.test('a given destinationCountryCode is stored as is, with no lookup', async (t) => {
  const [event] = scenario(t)
    .given([])
    .when(createCommand({ destination: 'Beč', destinationCountryCode: 'SK' }))
    .events();
  t.match(event?.data, { content: { destinationCountryCode: 'SK' } });
});

t.test('an absent destinationCountryCode is derived offline, null when unknown', async (t) => {
  const derived = (destination: string | null) => {
    const [event] = scenario(t)
      .given([])
      .when(createCommand({ destination, destinationCountryCode: undefined }))
      .events();
    return event?.type === 'TravelEntryCreated' ? event.data.content.destinationCountryCode : 'not created';
  };
  t.equal(derived('Ljubljana'), 'SI');
  t.equal(derived('Praha, hotel Alcron'), 'CZ');
  t.equal(derived('Some village'), null);
  t.equal(derived(null), null);
});

t.test('the entry number must look like 2026-00042', async (t) => {
  const command: TravelEntryCommand = { type: 'CreateTravelEntry', data: { entryId: ENTRY_ID, entryNumber: '42', entry: draft() } };
  scenario(t).given([]).when(command).thenThrows('VALIDATION_FAILED', ['entryNumber']);
});

t.test('create on an existing stream is a conflict', async (t) => {
  const created = scenario(t).given([]).when(createCommand()).events();
  scenario(t).given(created).when(createCommand()).thenThrows('ENTRY_ALREADY_EXISTS');
});

t.test('field errors across the entry and its rows are keyed by path', async (t) => {
  const error = scenario(t)
    .given([])
    .when(
      createCommand({
        departureDate: '2026-03-05',
        returnDate: '2026-03-04',
        travelType: 'Holiday',
        currencyCode: 'euro',
        advancePayment: '-5',
        destinationCountryCode: 'XX',
        manualAdvanceExchangeRate: '0',
        expenses: [expense({ amount: '0', date: '2026-02-30', category: '' })],
        perDiems: [perDiem({ departureTime: '2026-03-03T20:00:00Z', arrivalTime: '2026-03-02T06:00:00Z', countryCode: 'Austria' })],
        costCenterAllocations: [allocation('cc-1', '150')],
      }),
    )
    .thenThrows('VALIDATION_FAILED', [
      'returnDate',
      'travelType',
      'currencyCode',
      'advancePayment',
      'destinationCountryCode',
      'manualAdvanceExchangeRate',
      'expenses[0].amount',
      'expenses[0].date',
      'expenses[0].category',
      'perDiems[0].arrivalTime',
      'perDiems[0].countryCode',
      'costCenterAllocations[0].share',
    ]);
  t.match(error.errors?.returnDate?.[0], /before departureDate/);
  t.match(error.errors?.['perDiems[0].arrivalTime']?.[0], /after departureTime/);
});

t.test('a per diem needs departureTime strictly before arrivalTime', async (t) => {
  scenario(t)
    .given([])
    .when(createCommand({ perDiems: [perDiem({ arrivalTime: '2026-03-02T06:00:00Z' })] }))
    .thenThrows('VALIDATION_FAILED', ['perDiems[0].arrivalTime']);
});

t.test('departure and return on the same day are fine', async (t) => {
  const [event] = scenario(t)
    .given([])
    .when(createCommand({ returnDate: '2026-03-02' }))
    .events();
  t.equal(event?.type, 'TravelEntryCreated');
});

t.test('cost-center shares must add up to exactly 100 when any exist', async (t) => {
  const err = scenario(t)
    .given([])
    .when(createCommand({ costCenterAllocations: [allocation('cc-1', '60'), allocation('cc-2', '30')] }))
    .thenThrows('VALIDATION_FAILED', ['costCenterAllocations']);
  t.match(err.errors?.costCenterAllocations?.[0], /add up to 100; they add up to 90/);
  const thirds = scenario(t)
    .given([])
    .when(createCommand({ costCenterAllocations: [allocation('a', '33.33'), allocation('b', '33.33'), allocation('c', '33.34')] }))
    .events();
  t.equal(thirds[0]?.type, 'TravelEntryCreated', 'decimal thirds add up exactly');
  const none = scenario(t)
    .given([])
    .when(createCommand({ costCenterAllocations: [] }))
    .events();
  t.equal(none[0]?.type, 'TravelEntryCreated', 'no allocations at all is fine');
});

t.test('a cost center appears once per entry', async (t) => {
  scenario(t)
    .given([])
    .when(createCommand({ costCenterAllocations: [allocation('cc-1', '50'), allocation('cc-1', '50')] }))
    .thenThrows('VALIDATION_FAILED', ['costCenterAllocations[1].costCenterId']);
  // An allocation recorded before ids were lower-cased at the door may hold its id upper-case.
  scenario(t)
    .given([])
    .when(createCommand({ costCenterAllocations: [allocation('CC-1', '50'), allocation('cc-1', '50')] }))
    .thenThrows('VALIDATION_FAILED', ['costCenterAllocations[1].costCenterId']);
});

t.test('shell conversion facts are checked too', async (t) => {
  scenario(t)
    .given([])
    .when(
      createCommand({
        advancePaymentInBaseCurrency: 'lots',
        advancePaymentExchangeRateSource: 'FED' as never,
        expenses: [expense({ amountInBaseCurrency: '' })],
      }),
    )
    .thenThrows('VALIDATION_FAILED', [
      'advancePaymentInBaseCurrency',
      'advancePaymentExchangeRateSource',
      'expenses[0].amountInBaseCurrency',
    ]);
});

t.test('a provenance of a converted row is recorded', async (t) => {
  const [event] = scenario(t, testContext({ ids: ['x-1'] }))
    .given([])
    .when(
      createCommand({
        currencyCode: 'USD',
        advancePayment: '100.00',
        advancePaymentInBaseCurrency: '92.31',
        advancePaymentExchangeRateSource: 'HNB',
        expenses: [
          expense({
            currencyCode: 'CZK',
            amount: '2500.00',
            manualExchangeRate: '25.1',
            exchangeRate: '25.1',
            exchangeRateSource: 'MANUAL',
            amountInBaseCurrency: '99.60',
          }),
        ],
      }),
    )
    .events();
  t.match(event?.data, {
    content: {
      advancePaymentExchangeRateSource: 'HNB',
      advancePaymentInBaseCurrency: '92.31',
      expenses: [{ manualExchangeRate: '25.1', exchangeRate: '25.1', exchangeRateSource: 'MANUAL', amountInBaseCurrency: '99.60' }],
    },
  });
});

t.test('create can carry attachment metadata', async (t) => {
  const command: TravelEntryCommand = {
    type: 'CreateTravelEntry',
    data: {
      entryId: ENTRY_ID,
      entryNumber: ENTRY_NUMBER,
      entry: draft(),
      attachments: [{ id: 'file-1', fileName: 'receipt.pdf', contentType: 'application/pdf', size: 1024 }],
    },
  };
  const events = scenario(t).given([]).when(command).events();
  const state = stateOf(events);
  if (state.kind !== 'Existing') return t.fail('exists');
  t.strictSame(state.entry.attachments, [
    { id: 'file-1', fileName: 'receipt.pdf', contentType: 'application/pdf', size: 1024, uploadedAt: TEST_NOW },
  ]);
});

t.test('the employee is required', async (t) => {
  scenario(t)
    .given([])
    .when(createCommand({ employeeId: '' }))
    .thenThrows('VALIDATION_FAILED', ['employeeId']);
});

t.test('the shell computes the advance at the date the core will record', async (t) => {
  const { advanceRateDate } = await import('../../../src/domain/travel-entries/index.js');
  t.equal(advanceRateDate({ entryDate: '2026-03-01', advancePaymentDate: '2026-02-27' }, TEST_NOW), '2026-02-27');
  t.equal(advanceRateDate({ entryDate: '2026-03-01' }, TEST_NOW), '2026-03-01');
  t.equal(advanceRateDate({}, TEST_NOW), '2026-03-10');
});

t.test('evolve ignores a stray event on an absent entry instead of failing a replay', async (t) => {
  const state = stateOf([{ type: 'TravelEntrySubmitted', data: { entryId: ENTRY_ID, steps: [], skippedStepIds: [], at: TEST_NOW } }]);
  t.strictSame(state, { kind: 'Absent' });
});
