// The travel-entry record as events carry it and state holds it. Money is a decimal string
// (computed by the shell with a decimal library); dates are `yyyy-MM-dd`; instants ISO 8601 UTC.
import type { ExchangeRateSource } from '../shared/exchange-rate-source.js';

/** Canonical status strings (the API allow-list). */
export const TRAVEL_ENTRY_STATUSES = ['Draft', 'PendingApproval', 'ChangesRequested', 'Approved', 'Rejected', 'Cancelled'] as const;
export type TravelEntryStatus = (typeof TRAVEL_ENTRY_STATUSES)[number];

/** Fixed integers of the webhook summary's `status`. Published: never renumber, only append. */
export const TRAVEL_ENTRY_STATUS_CODES: Readonly<Record<TravelEntryStatus, number>> = {
  Draft: 0,
  PendingApproval: 1,
  Approved: 2,
  Rejected: 3,
  Cancelled: 4,
  ChangesRequested: 5,
};

/** `TravelType` allow-list: a trip inside the tenant's country or abroad. */
export const TRAVEL_TYPES = ['Domestic', 'Foreign'] as const;
export type TravelType = (typeof TRAVEL_TYPES)[number];

export interface Expense {
  id: string;
  date: string;
  category: string;
  description: string | null;
  amount: string;
  currencyCode: string;
  manualExchangeRate: string | null;
  exchangeRate: string | null;
  exchangeRateSource: ExchangeRateSource | null;
  amountInBaseCurrency: string;
}

export interface MealAllocationDay {
  date: string;
  breakfastsProvided: number;
  lunchesProvided: number;
  dinnersProvided: number;
}

export interface PerDiem {
  id: string;
  countryCode: string;
  departureTime: string;
  arrivalTime: string;
  breakfastsProvided: number;
  lunchesProvided: number;
  dinnersProvided: number;
  /** Derived, always lunchesProvided + dinnersProvided (the Croatian regulation's shape). */
  mealsProvided: number;
  mealsProvidedAllocation: MealAllocationDay[] | null;
  /** What is paid: overrideAmount when set, else statutoryAmount (or, on a legacy import, the amount as given). */
  amount: string;
  currencyCode: string;
  overrideAmount: string | null;
  overrideReason: string | null;
  manualExchangeRate: string | null;
  exchangeRateSource: ExchangeRateSource | null;
  /**
   * What the statutory engine computed (src/domain/per-diems). Null on legacy imports and on rows
   * recorded before the engine, whose amount was the client's.
   */
  statutory?: StatutoryPerDiem | null;
}

/** The engine's figures of a per-diem row (a one-leg itinerary, or a row of from-itinerary). */
export interface StatutoryPerDiem {
  statutoryAmount: string;
  rate: string;
  units: string;
  hours: string;
  mealReduction: string;
  /** The caller's wall-clock times of the row. */
  departureTimeLocal: string;
  arrivalTimeLocal: string;
  /**
   * The IANA zone the row was computed in (its country's; departureTimeLocal is read in it). A full
   * replacement sends it back: a country with several zones needs it. Absent before session 23.
   */
  timeZone?: string | null;
  exchangeRate: string | null;
  exchangeRateDate: string | null;
  /** `amount` (what is paid) in the base currency, converted at exchangeRate. */
  amountInBaseCurrency: string;
  rule: string;
  /** Revision of the law's imported rate tables used; null: the shipped tables only. */
  rateTableRevision: number | null;
}

export interface CostCenterAllocation {
  id: string;
  costCenterId: string;
  /** Percent of the entry, decimal string; all shares of an entry add up to 100. */
  share: string;
}

/** Metadata only: the bytes live in the shell's blob store under `id`. */
export interface Attachment {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  uploadedAt: string;
}

/** The scalar fields a create or a full replacement sets. */
export interface TravelEntryDetails {
  entryDate: string;
  departureDate: string;
  returnDate: string;
  departureLocation: string | null;
  departureLocationPlaceId: string | null;
  destination: string | null;
  destinationPlaceId: string | null;
  destinationCountryCode: string | null;
  travelType: TravelType;
  purpose: string | null;
  report: string | null;
  preApprovalNote: string | null;
  vehicleId: string | null;
  advancePayment: string;
  currencyCode: string;
  advancePaymentDate: string;
  manualAdvanceExchangeRate: string | null;
  advancePaymentInBaseCurrency: string;
  advancePaymentExchangeRateSource: ExchangeRateSource | null;
}

/** Details plus the child rows a create or a full replacement sets (attachments are uploaded separately). */
export interface TravelEntryContent extends TravelEntryDetails {
  expenses: Expense[];
  perDiems: PerDiem[];
  costCenterAllocations: CostCenterAllocation[];
}

/** One approval step as snapshotted at submission: only eligible approvers, in the tenant's order. */
export interface ApprovalStep {
  stepId: string;
  name: string;
  approverIds: string[];
}

export interface Approval {
  stepIndex: number;
  stepId: string;
  approverId: string;
  at: string;
  /** The approver's comment. Absent in read models folded before session 23 (a rebuild fills it). */
  comment?: string | null;
}

/** The workflow of the latest submission. */
export interface WorkflowProgress {
  steps: ApprovalStep[];
  skippedStepIds: string[];
  /** Index into `steps` of the step awaiting a decision (equals steps.length once approved). */
  currentStepIndex: number;
  approvals: Approval[];
}
