import t from 'tap';
import { toTravelEntryWebhookDto, TRAVEL_ENTRY_STATUS_CODES, type TravelEntry } from '../../../src/domain/travel-entries/index.js';
import { entryOf, states } from './fixtures.js';

const EXPECTED_KEYS = [
  'id',
  'entryNumber',
  'employeeId',
  'departureDate',
  'returnDate',
  'status',
  'advancePayment',
  'currencyCode',
  'advancePaymentInBaseCurrency',
  'createdAt',
  'editedAt',
  'isLocked',
  'isPaidOut',
  'isDeleted',
];

// Every personal or free-text field carries a marker; none may appear in the serialized summary.
function markedEntry(): TravelEntry {
  const entry = entryOf(states.Draft());
  return {
    ...entry,
    purpose: 'PII-PURPOSE',
    report: 'PII-REPORT',
    preApprovalNote: 'PII-NOTE',
    destination: 'PII-DESTINATION',
    destinationPlaceId: 'PII-DEST-PLACE',
    departureLocation: 'PII-DEPARTURE',
    departureLocationPlaceId: 'PII-DEP-PLACE',
    destinationCountryCode: 'PII-COUNTRY',
    vehicleId: 'PII-VEHICLE',
    manualAdvanceExchangeRate: '7.777777',
    statusReason: 'PII-REASON',
    expenses: entry.expenses.map((e) => ({ ...e, description: 'PII-EXPENSE', category: 'PII-CATEGORY' })),
    perDiems: entry.perDiems.map((p) => ({ ...p, overrideReason: 'PII-OVERRIDE', countryCode: 'PII-PD-COUNTRY' })),
    costCenterAllocations: entry.costCenterAllocations.map((a) => ({ ...a, costCenterId: 'PII-COSTCENTER' })),
    attachments: [{ id: 'PII-FILE-ID', fileName: 'PII-FILE', contentType: 'application/pdf', size: 1, uploadedAt: entry.createdAt }],
    workflow: {
      steps: [{ stepId: 'PII-STEP', name: 'PII-STEP-NAME', approverIds: ['PII-APPROVER'] }],
      skippedStepIds: [],
      currentStepIndex: 0,
      approvals: [],
    },
  };
}

t.test('the summary has exactly the spec fields plus isLocked, isPaidOut and isDeleted', async (t) => {
  const entry = entryOf(states.Draft());
  const dto = toTravelEntryWebhookDto(entry);
  t.strictSame(Object.keys(dto).sort(), [...EXPECTED_KEYS].sort());
  t.strictSame(dto, {
    id: entry.id,
    entryNumber: '2026-00042',
    employeeId: entry.employeeId,
    departureDate: '2026-03-02',
    returnDate: '2026-03-03',
    status: 0,
    advancePayment: 200,
    currencyCode: 'EUR',
    advancePaymentInBaseCurrency: 200,
    createdAt: entry.createdAt,
    editedAt: entry.editedAt,
    isLocked: false,
    isPaidOut: false,
    isDeleted: false,
  });
});

t.test('no personal or free-text field can appear in the summary', async (t) => {
  const json = JSON.stringify(toTravelEntryWebhookDto(markedEntry()));
  t.notMatch(json, /PII-/);
  t.notMatch(json, /7\.777777/);
  for (const key of [
    'purpose',
    'report',
    'preApprovalNote',
    'destination',
    'expenses',
    'perDiems',
    'costCenterAllocations',
    'attachments',
    'workflow',
    'statusReason',
  ]) {
    t.notOk(json.includes(`"${key}"`), `no ${key}`);
  }
});

t.test('fields added to the entry later do not leak (picked, not spread)', async (t) => {
  const extended = { ...markedEntry(), homeAddress: 'PII-HOME' } as TravelEntry;
  t.notMatch(JSON.stringify(toTravelEntryWebhookDto(extended)), /PII-/);
});

t.test('status integers are fixed; money is a JSON number', async (t) => {
  t.strictSame(TRAVEL_ENTRY_STATUS_CODES, { Draft: 0, PendingApproval: 1, Approved: 2, Rejected: 3, Cancelled: 4, ChangesRequested: 5 });
  t.equal(toTravelEntryWebhookDto(entryOf(states.PendingApproval())).status, 1);
  t.equal(toTravelEntryWebhookDto(entryOf(states.Approved())).status, 2);
  t.equal(toTravelEntryWebhookDto(entryOf(states.Rejected())).status, 3);
  t.equal(toTravelEntryWebhookDto(entryOf(states.Cancelled())).status, 4);
  t.equal(toTravelEntryWebhookDto(entryOf(states.ChangesRequested())).status, 5);
  const paid = toTravelEntryWebhookDto(entryOf(states.PaidOut()));
  t.match(paid, { status: 2, isPaidOut: true, isLocked: true });
  t.equal(toTravelEntryWebhookDto({ ...entryOf(states.Draft()), advancePayment: '1234.56' }).advancePayment, 1234.56);
});
