// Travel-entry commands. Each request type is split in two: `...Fields` is what the client sent
// (parsed JSON; money as decimal strings), `...Conversion` are facts the shell computed before the
// command (exchange rate lookup and decimal conversion). The core checks and records both; it
// never looks anything up. Child ids come from ctx.newId(); ids that name streams or stored
// files (entry, attachment) are chosen by the shell because it needs them before deciding.
import type { ExchangeRateSource } from '../shared/exchange-rate-source.js';
import type { LookedUpFacts } from './looked-up-facts.js';
import type { StatutoryPerDiem } from './model.js';

export interface TravelEntryFields {
  /** Defaults to the UTC date of ctx.now. */
  entryDate?: string | null;
  employeeId: string;
  departureDate: string;
  returnDate: string;
  departureLocation?: string | null;
  departureLocationPlaceId?: string | null;
  destination?: string | null;
  destinationPlaceId?: string | null;
  /** Stored as given; when absent it is derived from `destination` offline (null when unknown). */
  destinationCountryCode?: string | null;
  /** Allow-list: `Domestic`, `Foreign`. */
  travelType: string;
  purpose?: string | null;
  report?: string | null;
  preApprovalNote?: string | null;
  vehicleId?: string | null;
  /** Defaults to `0`. */
  advancePayment?: string | null;
  currencyCode: string;
  /** Defaults to entryDate; the exchange-rate date of the advance. */
  advancePaymentDate?: string | null;
  manualAdvanceExchangeRate?: string | null;
}

/** Shell facts for the advance, converted at advancePaymentDate (see `advanceRateDate`). */
export interface AdvanceConversion {
  advancePaymentInBaseCurrency: string;
  /** Provider code, `MANUAL`, or null for a same-currency advance. */
  advancePaymentExchangeRateSource: ExchangeRateSource | null;
}

export interface ExpenseFields {
  /** Only on a full replacement: names the stored expense this row keeps. */
  id?: string | null;
  date: string;
  category: string;
  description?: string | null;
  amount: string;
  currencyCode: string;
  manualExchangeRate?: string | null;
}

/** Shell facts for an expense, converted at the expense date. */
export interface ExpenseConversion {
  exchangeRate: string | null;
  exchangeRateSource: ExchangeRateSource | null;
  amountInBaseCurrency: string;
}

export type ExpenseDraft = ExpenseFields & ExpenseConversion;

export interface MealAllocationDayFields {
  date: string;
  breakfastsProvided?: number | null;
  lunchesProvided?: number | null;
  dinnersProvided?: number | null;
}

export interface PerDiemFields {
  /** Only on a full replacement: names the stored per diem this row keeps. */
  id?: string | null;
  countryCode: string;
  departureTime: string;
  arrivalTime: string;
  breakfastsProvided?: number | null;
  lunchesProvided?: number | null;
  dinnersProvided?: number | null;
  /** Legacy aggregate, used only when the per-meal counts are absent (see per-diem-meals.ts). */
  mealsProvided?: number | null;
  mealsProvidedAllocation?: MealAllocationDayFields[] | null;
  /** Accepted for compatibility and never trusted: the engine computes the amount (statutory facts). */
  amount?: string | null;
  /** Accepted for compatibility: the statutory rate's currency is stored. */
  currencyCode?: string | null;
  /** IANA zone of the times; needed only where the country has several. */
  timeZone?: string | null;
  overrideAmount?: string | null;
  overrideReason?: string | null;
  manualExchangeRate?: string | null;
}

/** Shell facts for a per diem: what the statutory engine computed (null: it refused; absent: a legacy import, stored as given). */
export interface PerDiemConversion {
  exchangeRateSource: ExchangeRateSource | null;
  statutory?: (StatutoryPerDiem & { currencyCode: string }) | null;
}

export type PerDiemDraft = PerDiemFields & PerDiemConversion;

export interface AllocationFields {
  /** Only on a full replacement: names the stored allocation this row keeps. */
  id?: string | null;
  costCenterId: string;
  share: string;
}

/** A whole entry as created, imported or fully replaced. Omitted child lists are empty. */
export interface TravelEntryDraft extends TravelEntryFields, AdvanceConversion {
  expenses?: ExpenseDraft[] | null;
  perDiems?: PerDiemDraft[] | null;
  costCenterAllocations?: AllocationFields[] | null;
}

/** An uploaded file the shell has stored under `id`. */
export interface AttachmentFields {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
}

/** A tenant workflow step with the shell's lookup of its ELIGIBLE approvers: active, not archived employees of the tenant. */
export interface WorkflowStepFacts {
  stepId: string;
  name: string;
  eligibleApproverIds: string[];
}

/** An approver's decision; the shell looked up whether approverId is an active, not archived employee of the tenant. */
export interface ApproverFacts {
  approverId: string;
  approverIsActiveEmployee: boolean;
}

type C<T extends string, D> = { type: T; data: D & { entryId: string } };

export type CreateTravelEntry = C<
  'CreateTravelEntry',
  {
    /** Allocated by the shell, per tenant and year, gap-free: `2026-00042`. */
    entryNumber: string;
    entry: TravelEntryDraft;
    attachments?: AttachmentFields[] | null;
  }
>;
export type ImportTravelEntry = C<
  'ImportTravelEntry',
  {
    /** The legacy system's number, kept verbatim. */
    entryNumber: string;
    entry: TravelEntryDraft;
    /** Allow-list: `Draft`, `Approved`, `Rejected`, `Cancelled`. */
    status: string;
    /** Set when the legacy entry was paid out (only with `Approved`). */
    paidOutAt?: string | null;
  }
>;
export type ReplaceTravelEntry = C<'ReplaceTravelEntry', { entry: TravelEntryDraft }>;

export type AddExpense = C<'AddExpense', { expense: ExpenseDraft }>;
export type ChangeExpense = C<'ChangeExpense', { expenseId: string; expense: ExpenseDraft }>;
export type RemoveExpense = C<'RemoveExpense', { expenseId: string }>;
export type AddPerDiem = C<'AddPerDiem', { perDiem: PerDiemDraft }>;
export type ChangePerDiem = C<'ChangePerDiem', { perDiemId: string; perDiem: PerDiemDraft }>;
export type RemovePerDiem = C<'RemovePerDiem', { perDiemId: string }>;
/** All per diems replaced by the engine's rows for an itinerary (computed by the shell with the engine). */
export type ReplacePerDiemsFromItinerary = C<
  'ReplacePerDiemsFromItinerary',
  { rows: ItineraryPerDiemRow[]; itinerary: RecordedItinerary; rateTableRevision: number | null }
>;

/** One engine row as the entry stores it. */
export interface ItineraryPerDiemRow extends Omit<StatutoryPerDiem, 'rateTableRevision'> {
  countryCode: string;
  departureTime: string;
  arrivalTime: string;
  breakfastsProvided: number;
  lunchesProvided: number;
  dinnersProvided: number;
  currencyCode: string;
  exchangeRateSource: ExchangeRateSource | null;
}

/** The itinerary a from-itinerary write was computed from, kept in the event for the auditor. */
export interface RecordedItinerary {
  stops: { countryCode: string; time: string; placeId?: string | null; timeZone?: string | null }[];
  meals: {
    countryCode: string;
    departureTime: string;
    breakfastsProvided?: number | null;
    lunchesProvided?: number | null;
    dinnersProvided?: number | null;
  }[];
  advancePaymentDate: string | null;
}
export type AddAllocation = C<'AddAllocation', { allocation: AllocationFields }>;
export type ChangeAllocation = C<'ChangeAllocation', { allocationId: string; allocation: AllocationFields }>;
export type RemoveAllocation = C<'RemoveAllocation', { allocationId: string }>;
export type AddAttachments = C<'AddAttachments', { attachments: AttachmentFields[] }>;
export type RemoveAttachment = C<'RemoveAttachment', { attachmentId: string }>;

export type SubmitTravelEntry = C<'SubmitTravelEntry', { workflowSteps: WorkflowStepFacts[] }>;
export type ApproveTravelEntry = C<'ApproveTravelEntry', ApproverFacts & { comment?: string | null }>;
export type RejectTravelEntry = C<'RejectTravelEntry', ApproverFacts & { reason?: string | null }>;
export type RequestTravelEntryChanges = C<'RequestTravelEntryChanges', ApproverFacts & { reason?: string | null }>;
export type CancelTravelEntry = C<'CancelTravelEntry', { reason?: string | null }>;
/** Deletes an entry that was never submitted (Draft, not locked); anything else is refused. */
export type DeleteTravelEntry = C<'DeleteTravelEntry', Record<never, never>>;

export const EXPORT_STATUSES = ['posted', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** What an ERP connector reports back after posting (or failing to post) the entry (decide-export.ts). */
export interface ExportFields {
  system: string;
  status: string;
  externalId?: string | null;
  externalUrl?: string | null;
  failureReason?: string | null;
}
export type RecordTravelEntryExport = C<'RecordTravelEntryExport', ExportFields>;

/** Recorded by the shell for each entry of a new payout batch (see payouts/plan.ts). */
export type MarkTravelEntryPaidOut = C<'MarkTravelEntryPaidOut', { payoutBatchId: string; payoutMethod: string; payoutDate: string }>;
/** Recorded by the shell for each entry of a deleted payout batch. */
export type ReverseTravelEntryPayout = C<'ReverseTravelEntryPayout', { payoutBatchId: string }>;

/** Any command may carry the facts the shell looked up for it; the decider judges them (looked-up-facts.ts). */
export type TravelEntryCommand = (
  | CreateTravelEntry
  | ImportTravelEntry
  | ReplaceTravelEntry
  | AddExpense
  | ChangeExpense
  | RemoveExpense
  | AddPerDiem
  | ChangePerDiem
  | RemovePerDiem
  | ReplacePerDiemsFromItinerary
  | AddAllocation
  | ChangeAllocation
  | RemoveAllocation
  | AddAttachments
  | RemoveAttachment
  | SubmitTravelEntry
  | ApproveTravelEntry
  | RejectTravelEntry
  | RequestTravelEntryChanges
  | CancelTravelEntry
  | DeleteTravelEntry
  | RecordTravelEntryExport
  | MarkTravelEntryPaidOut
  | ReverseTravelEntryPayout
) & { facts?: LookedUpFacts };
