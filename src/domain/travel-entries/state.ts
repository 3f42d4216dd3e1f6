// Travel-entry state: nothing before creation, then the current entry. `locked` is derived from
// the other fields after every event and never set directly, so it cannot drift from them.
import type { ExportStatus } from './commands.js';
import type { TravelEntryEvent } from './events.js';
import type { Attachment, TravelEntryContent, TravelEntryStatus, WorkflowProgress } from './model.js';

export interface TravelEntry extends TravelEntryContent {
  id: string;
  entryNumber: string;
  employeeId: string;
  status: TravelEntryStatus;
  /** Derived: closed for writing (see isLocked). */
  locked: boolean;
  /** Set by a legacy import of an entry dated before 2023; never cleared. */
  importLocked: boolean;
  isPaidOut: boolean;
  paidOutAt: string | null;
  payoutBatchId: string | null;
  payoutDate: string | null;
  /** Batches whose payout of this entry was reversed (lets the shell retry a reversal safely). */
  reversedPayoutBatchIds: string[];
  attachments: Attachment[];
  workflow: WorkflowProgress | null;
  /** The reason given with the latest reject, request-changes or cancel. */
  statusReason: string | null;
  createdAt: string;
  editedAt: string;
  /**
   * The last export write-back per system (TravelEntryExportRecorded). Optional: rows folded before
   * export write-back existed have none until their next event.
   */
  exports?: Record<string, EntryExport>;
}

export interface EntryExport {
  status: ExportStatus;
  externalId: string | null;
  externalUrl: string | null;
  failureReason: string | null;
  at: string;
}

/**
 * `Deleted`: a never-submitted entry that was deleted. It is gone for every read and write (only
 * `Existing` is found); the entry as it was when deleted stays for the tombstone and the webhook
 * summary, without its attachments (their bytes are deleted with it, or swept as orphans).
 */
export type TravelEntryState =
  { kind: 'Absent' } | { kind: 'Existing'; entry: TravelEntry } | { kind: 'Deleted'; entry: TravelEntry; deletedAt: string };

export const initialState = (): TravelEntryState => ({ kind: 'Absent' });

const CLOSED_STATUSES: ReadonlySet<TravelEntryStatus> = new Set(['PendingApproval', 'Approved', 'Rejected', 'Cancelled']);

/** Closed for writing: awaiting or past a decision, paid out, or imported from before 2023. */
export function isLocked(entry: Pick<TravelEntry, 'status' | 'isPaidOut' | 'importLocked'>): boolean {
  return CLOSED_STATUSES.has(entry.status) || entry.isPaidOut || entry.importLocked;
}

function fresh(e: {
  entryId: string;
  entryNumber: string;
  employeeId: string;
  content: TravelEntryContent;
  attachments: Attachment[];
  status: TravelEntryStatus;
  importLocked: boolean;
  paidOutAt: string | null;
  at: string;
}): TravelEntry {
  return {
    ...e.content,
    id: e.entryId,
    entryNumber: e.entryNumber,
    employeeId: e.employeeId,
    status: e.status,
    locked: false,
    importLocked: e.importLocked,
    isPaidOut: e.paidOutAt !== null,
    paidOutAt: e.paidOutAt,
    payoutBatchId: null,
    payoutDate: null,
    reversedPayoutBatchIds: [],
    attachments: e.attachments,
    workflow: null,
    statusReason: null,
    createdAt: e.at,
    editedAt: e.at,
  };
}

function upsert<T extends { id: string }>(rows: T[], row: T): T[] {
  return rows.some((r) => r.id === row.id) ? rows.map((r) => (r.id === row.id ? row : r)) : [...rows, row];
}

const without = <T extends { id: string }>(rows: T[], id: string): T[] => rows.filter((r) => r.id !== id);

/** The entry after the event, before deriving `locked` and `editedAt`. */
function apply(entry: TravelEntry, event: TravelEntryEvent): TravelEntry {
  switch (event.type) {
    case 'TravelEntryCreated':
    case 'TravelEntryImported':
      return entry; // only valid on an absent entry, handled in evolve
    case 'TravelEntryDeleted':
      return entry; // changes the state's kind, handled in evolve
    case 'TravelEntryExportRecorded': {
      const { system, status, externalId, externalUrl, failureReason, at } = event.data;
      return { ...entry, exports: { ...entry.exports, [system]: { status, externalId, externalUrl, failureReason, at } } };
    }
    case 'TravelEntryReplaced':
      return { ...entry, ...event.data.content };
    case 'TravelEntryExpenseAdded':
    case 'TravelEntryExpenseChanged':
      return { ...entry, expenses: upsert(entry.expenses, event.data.expense) };
    case 'TravelEntryExpenseRemoved':
      return { ...entry, expenses: without(entry.expenses, event.data.expenseId) };
    case 'TravelEntryPerDiemAdded':
    case 'TravelEntryPerDiemChanged':
      return { ...entry, perDiems: upsert(entry.perDiems, event.data.perDiem) };
    case 'TravelEntryPerDiemRemoved':
      return { ...entry, perDiems: without(entry.perDiems, event.data.perDiemId) };
    case 'TravelEntryPerDiemsReplaced':
      return { ...entry, perDiems: event.data.perDiems };
    case 'TravelEntryAllocationAdded':
    case 'TravelEntryAllocationChanged':
      return { ...entry, costCenterAllocations: upsert(entry.costCenterAllocations, event.data.allocation) };
    case 'TravelEntryAllocationRemoved':
      return { ...entry, costCenterAllocations: without(entry.costCenterAllocations, event.data.allocationId) };
    case 'TravelEntryAttachmentsAdded':
      return { ...entry, attachments: event.data.attachments.reduce(upsert, entry.attachments) };
    case 'TravelEntryAttachmentRemoved':
      return { ...entry, attachments: without(entry.attachments, event.data.attachmentId) };
    case 'TravelEntrySubmitted': {
      const { steps, skippedStepIds } = event.data;
      return {
        ...entry,
        status: 'PendingApproval',
        statusReason: null,
        workflow: { steps, skippedStepIds, currentStepIndex: 0, approvals: [] },
      };
    }
    case 'TravelEntryStepApproved':
    case 'TravelEntryApproved': {
      const { stepIndex, stepId, approverId, at, comment } = event.data;
      const workflow = entry.workflow ?? { steps: [], skippedStepIds: [], currentStepIndex: 0, approvals: [] };
      return {
        ...entry,
        status: event.type === 'TravelEntryApproved' ? 'Approved' : entry.status,
        workflow: {
          ...workflow,
          currentStepIndex: stepIndex + 1,
          approvals: [...workflow.approvals, { stepIndex, stepId, approverId, at, comment: comment ?? null }],
        },
      };
    }
    case 'TravelEntryAutoApproved':
      return { ...entry, status: 'Approved' };
    case 'TravelEntryRejected':
      return { ...entry, status: 'Rejected', statusReason: event.data.reason };
    case 'TravelEntryChangesRequested':
      return { ...entry, status: 'ChangesRequested', statusReason: event.data.reason };
    case 'TravelEntryCancelled':
      return { ...entry, status: 'Cancelled', statusReason: event.data.reason };
    case 'TravelEntryPaidOut': {
      const { payoutBatchId, payoutDate, at } = event.data;
      return { ...entry, isPaidOut: true, paidOutAt: at, payoutBatchId, payoutDate };
    }
    case 'TravelEntryPayoutReversed':
      return {
        ...entry,
        isPaidOut: false,
        paidOutAt: null,
        payoutBatchId: null,
        payoutDate: null,
        reversedPayoutBatchIds: [...entry.reversedPayoutBatchIds, event.data.payoutBatchId],
      };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

export function evolve(state: TravelEntryState, event: TravelEntryEvent): TravelEntryState {
  let entry: TravelEntry;
  if (event.type === 'TravelEntryCreated') {
    entry = fresh({ ...event.data, status: 'Draft', importLocked: false, paidOutAt: null });
  } else if (event.type === 'TravelEntryImported') {
    entry = fresh({ ...event.data, attachments: [], importLocked: event.data.locked });
  } else if (event.type === 'TravelEntryDeleted') {
    if (state.kind !== 'Existing') return state;
    const at = event.data.at;
    return { kind: 'Deleted', entry: { ...state.entry, attachments: [], editedAt: at }, deletedAt: at };
  } else if (state.kind === 'Existing') {
    // An export write-back changes no content: editedAt stays the last content edit (an ERP that
    // re-posts edited entries must not see its own acknowledgement as an edit).
    const editedAt = event.type === 'TravelEntryExportRecorded' ? state.entry.editedAt : event.data.at;
    entry = { ...apply(state.entry, event), editedAt };
  } else {
    return state; // a stray event on an absent or deleted entry is ignored, never thrown: replay must not fail
  }
  return { kind: 'Existing', entry: { ...entry, locked: isLocked(entry) } };
}
