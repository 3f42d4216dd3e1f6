// Travel-entry fixtures. Given-events are produced by the decider itself from valid commands, so
// the fixtures cannot drift from what the decider really records.
import type { CommandContext } from '../../../src/domain/decider.js';
import {
  travelEntryDecider,
  type AllocationFields,
  type ExpenseDraft,
  type PerDiemDraft,
  type TravelEntryCommand,
  type TravelEntryDraft,
  type TravelEntryEvent,
  type TravelEntryState,
  type WorkflowStepFacts,
} from '../../../src/domain/travel-entries/index.js';
import { fold } from '../../../src/domain/decider.js';
import { givenWhenThen, testContext } from '../../helpers/given-when-then.js';

export const scenario = givenWhenThen(travelEntryDecider);

export const ENTRY_ID = 'entry-1';
export const EMPLOYEE_ID = 'emp-traveller';
export const ENTRY_NUMBER = '2026-00042';
export const EARLIER = '2026-03-01T08:00:00.000Z';

export const expense = (over: Partial<ExpenseDraft> = {}): ExpenseDraft => ({
  date: '2026-03-02',
  category: 'Accommodation',
  description: 'Hotel',
  amount: '120.00',
  currencyCode: 'EUR',
  exchangeRate: null,
  exchangeRateSource: null,
  amountInBaseCurrency: '120.00',
  ...over,
});

export const perDiem = (over: Partial<PerDiemDraft> = {}): PerDiemDraft => ({
  countryCode: 'AT',
  departureTime: '2026-03-02T06:00:00Z',
  arrivalTime: '2026-03-03T20:00:00Z',
  breakfastsProvided: 1,
  lunchesProvided: 1,
  dinnersProvided: 0,
  amount: '70.00',
  currencyCode: 'EUR',
  exchangeRateSource: null,
  ...over,
});

export const allocation = (costCenterId: string, share: string, id?: string): AllocationFields => ({
  costCenterId,
  share,
  ...(id === undefined ? {} : { id }),
});

export const draft = (over: Partial<TravelEntryDraft> = {}): TravelEntryDraft => ({
  entryDate: '2026-03-01',
  employeeId: EMPLOYEE_ID,
  departureDate: '2026-03-02',
  returnDate: '2026-03-03',
  departureLocation: 'Zagreb',
  departureLocationPlaceId: 'place-zg',
  destination: 'Beč',
  destinationPlaceId: 'place-wien',
  travelType: 'Foreign',
  purpose: 'Customer workshop',
  report: 'Went well',
  preApprovalNote: 'Approved by phone',
  vehicleId: 'veh-1',
  advancePayment: '200.00',
  currencyCode: 'EUR',
  manualAdvanceExchangeRate: null,
  advancePaymentInBaseCurrency: '200.00',
  advancePaymentExchangeRateSource: null,
  expenses: [expense()],
  perDiems: [perDiem()],
  costCenterAllocations: [allocation('cc-1', '60'), allocation('cc-2', '40')],
  ...over,
});

export const createCommand = (over: Partial<TravelEntryDraft> = {}): TravelEntryCommand => ({
  type: 'CreateTravelEntry',
  data: { entryId: ENTRY_ID, entryNumber: ENTRY_NUMBER, entry: draft(over) },
});

/** Runs commands in order from an empty stream and returns all events recorded. */
export function history(commands: TravelEntryCommand[], ctx: CommandContext = testContext({ now: EARLIER, ids: [] })): TravelEntryEvent[] {
  const events: TravelEntryEvent[] = [];
  for (const command of commands) events.push(...travelEntryDecider.decide(command, fold(travelEntryDecider, events), ctx));
  return events;
}

export const stateOf = (events: TravelEntryEvent[]): TravelEntryState => fold(travelEntryDecider, events);

export function entryOf(events: TravelEntryEvent[]) {
  const state = stateOf(events);
  if (state.kind !== 'Existing') throw new Error('no entry');
  return state.entry;
}

// Workflow facts as the shell supplies them.
export const step = (stepId: string, ...eligibleApproverIds: string[]): WorkflowStepFacts => ({
  stepId,
  name: `Step ${stepId}`,
  eligibleApproverIds,
});

export const submit = (...workflowSteps: WorkflowStepFacts[]): TravelEntryCommand => ({
  type: 'SubmitTravelEntry',
  data: { entryId: ENTRY_ID, workflowSteps },
});
export const approve = (approverId: string, approverIsActiveEmployee = true): TravelEntryCommand => ({
  type: 'ApproveTravelEntry',
  data: { entryId: ENTRY_ID, approverId, approverIsActiveEmployee },
});
export const reject = (approverId: string, reason?: string): TravelEntryCommand => ({
  type: 'RejectTravelEntry',
  data: { entryId: ENTRY_ID, approverId, approverIsActiveEmployee: true, reason },
});
export const requestChanges = (approverId: string, reason?: string): TravelEntryCommand => ({
  type: 'RequestTravelEntryChanges',
  data: { entryId: ENTRY_ID, approverId, approverIsActiveEmployee: true, reason },
});
export const cancel = (reason?: string): TravelEntryCommand => ({ type: 'CancelTravelEntry', data: { entryId: ENTRY_ID, reason } });
export const payOut = (payoutBatchId = 'batch-1'): TravelEntryCommand => ({
  type: 'MarkTravelEntryPaidOut',
  data: { entryId: ENTRY_ID, payoutBatchId, payoutMethod: 'BankTransfer', payoutDate: '2026-03-20' },
});
export const reversePayout = (payoutBatchId = 'batch-1'): TravelEntryCommand => ({
  type: 'ReverseTravelEntryPayout',
  data: { entryId: ENTRY_ID, payoutBatchId },
});

/** Histories that end in each state of the transition table. */
export const states = {
  Draft: () => history([createCommand()]),
  PendingApproval: () => history([createCommand(), submit(step('s1', 'boss'))]),
  ChangesRequested: () => history([createCommand(), submit(step('s1', 'boss')), requestChanges('boss', 'Receipt missing')]),
  Approved: () => history([createCommand(), submit(step('s1', 'boss')), approve('boss')]),
  PaidOut: () => history([createCommand(), submit(), payOut()]),
  Rejected: () => history([createCommand(), submit(step('s1', 'boss')), reject('boss')]),
  Cancelled: () => history([createCommand(), cancel()]),
} as const;

export type StateName = keyof typeof states;
