// Travel-entry events (stream `travelEntry-{id}`). Type strings never change once stored. Every
// event carries `entryId` (self-describing for projections) and `at`, the command's instant,
// which becomes editedAt. The webhook catalog is derived from these: TravelEntryCreated ->
// entry.created, TravelEntryApproved -> entry.approved, TravelEntryPaidOut -> entry.paidout,
// everything else (including TravelEntryAutoApproved and TravelEntryDeleted) -> entry.updated.
import type { DomainEvent } from '../decider.js';
import type { PayoutMethod } from '../shared/payout-method.js';
import type { ExportStatus, RecordedItinerary } from './commands.js';
import type { Attachment, ApprovalStep, CostCenterAllocation, Expense, PerDiem, TravelEntryContent, TravelEntryStatus } from './model.js';

type E<T extends string, D> = DomainEvent<T, D & { entryId: string; at: string }>;

export type TravelEntryCreated = E<
  'TravelEntryCreated',
  { entryNumber: string; employeeId: string; content: TravelEntryContent; attachments: Attachment[] }
>;
/** Legacy import; `locked` is true when the entry is dated before 2023 and then stays locked for good. */
export type TravelEntryImported = E<
  'TravelEntryImported',
  {
    entryNumber: string;
    employeeId: string;
    content: TravelEntryContent;
    status: TravelEntryStatus;
    paidOutAt: string | null;
    locked: boolean;
  }
>;
/** A full replacement (PUT): `content` is the whole new content, attachments are untouched. */
export type TravelEntryReplaced = E<'TravelEntryReplaced', { content: TravelEntryContent }>;

export type TravelEntryExpenseAdded = E<'TravelEntryExpenseAdded', { expense: Expense }>;
export type TravelEntryExpenseChanged = E<'TravelEntryExpenseChanged', { expense: Expense }>;
export type TravelEntryExpenseRemoved = E<'TravelEntryExpenseRemoved', { expenseId: string }>;
export type TravelEntryPerDiemAdded = E<'TravelEntryPerDiemAdded', { perDiem: PerDiem }>;
export type TravelEntryPerDiemChanged = E<'TravelEntryPerDiemChanged', { perDiem: PerDiem }>;
export type TravelEntryPerDiemRemoved = E<'TravelEntryPerDiemRemoved', { perDiemId: string }>;
/** Every per diem replaced at once by the engine's rows for an itinerary (entry.updated). */
export type TravelEntryPerDiemsReplaced = E<
  'TravelEntryPerDiemsReplaced',
  { perDiems: PerDiem[]; itinerary: RecordedItinerary; rateTableRevision: number | null }
>;
export type TravelEntryAllocationAdded = E<'TravelEntryAllocationAdded', { allocation: CostCenterAllocation }>;
export type TravelEntryAllocationChanged = E<'TravelEntryAllocationChanged', { allocation: CostCenterAllocation }>;
export type TravelEntryAllocationRemoved = E<'TravelEntryAllocationRemoved', { allocationId: string }>;
/** One upload request (at most 5 files) is one record. */
export type TravelEntryAttachmentsAdded = E<'TravelEntryAttachmentsAdded', { attachments: Attachment[] }>;
export type TravelEntryAttachmentRemoved = E<'TravelEntryAttachmentRemoved', { attachmentId: string }>;

/** `steps`: the eligible steps snapshotted for this submission (empty: auto-approval follows). */
export type TravelEntrySubmitted = E<'TravelEntrySubmitted', { steps: ApprovalStep[]; skippedStepIds: string[] }>;
type StepDecision = { stepIndex: number; stepId: string; approverId: string };
/** An approval that leaves further steps. */
export type TravelEntryStepApproved = E<'TravelEntryStepApproved', StepDecision & { comment: string | null }>;
/** Terminal approval through the last workflow step (entry.approved). */
export type TravelEntryApproved = E<'TravelEntryApproved', StepDecision & { comment: string | null }>;
/** Approval without a workflow step with eligible approvers (entry.updated, never entry.approved). */
export type TravelEntryAutoApproved = E<'TravelEntryAutoApproved', Record<never, never>>;
export type TravelEntryRejected = E<'TravelEntryRejected', StepDecision & { reason: string | null }>;
export type TravelEntryChangesRequested = E<'TravelEntryChangesRequested', StepDecision & { reason: string | null }>;
export type TravelEntryCancelled = E<'TravelEntryCancelled', { previousStatus: TravelEntryStatus; reason: string | null }>;

/**
 * A never-submitted entry deleted (entry.updated, whose summary says isDeleted). The stream stays: the
 * entry then answers 404 everywhere and the list shows it only as a tombstone (includeDeleted=true).
 */
export type TravelEntryDeleted = E<'TravelEntryDeleted', Record<never, never>>;

/**
 * An ERP's posting acknowledgement (export write-back): the last status of the entry's export to
 * one system. It changes no content, so it is allowed on locked entries and leaves editedAt alone
 * (entry.updated, whose summary is unchanged but for the resource version).
 */
export type TravelEntryExportRecorded = E<
  'TravelEntryExportRecorded',
  { system: string; status: ExportStatus; externalId: string | null; externalUrl: string | null; failureReason: string | null }
>;

export type TravelEntryPaidOut = E<'TravelEntryPaidOut', { payoutBatchId: string; payoutMethod: PayoutMethod; payoutDate: string }>;
export type TravelEntryPayoutReversed = E<'TravelEntryPayoutReversed', { payoutBatchId: string }>;

export type TravelEntryEvent =
  | TravelEntryCreated
  | TravelEntryImported
  | TravelEntryReplaced
  | TravelEntryExpenseAdded
  | TravelEntryExpenseChanged
  | TravelEntryExpenseRemoved
  | TravelEntryPerDiemAdded
  | TravelEntryPerDiemChanged
  | TravelEntryPerDiemRemoved
  | TravelEntryPerDiemsReplaced
  | TravelEntryAllocationAdded
  | TravelEntryAllocationChanged
  | TravelEntryAllocationRemoved
  | TravelEntryAttachmentsAdded
  | TravelEntryAttachmentRemoved
  | TravelEntrySubmitted
  | TravelEntryStepApproved
  | TravelEntryApproved
  | TravelEntryAutoApproved
  | TravelEntryRejected
  | TravelEntryChangesRequested
  | TravelEntryCancelled
  | TravelEntryDeleted
  | TravelEntryExportRecorded
  | TravelEntryPaidOut
  | TravelEntryPayoutReversed;

export type TravelEntryEventType = TravelEntryEvent['type'];
