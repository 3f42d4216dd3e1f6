// Which workflow action is legal from which state: the table of docs/workflow.md, as data.
// Payout is not a status: an Approved entry is paid out or not (isPaidOut).
import { conflict, DomainError } from '../errors.js';
import type { TravelEntry } from './state.js';

export type WorkflowAction = 'submit' | 'approve' | 'reject' | 'requestChanges' | 'cancel' | 'payOut' | 'reversePayout';

const LEGAL: Record<WorkflowAction, (e: TravelEntry) => boolean> = {
  submit: (e) => e.status === 'Draft' || e.status === 'ChangesRequested',
  approve: (e) => e.status === 'PendingApproval',
  reject: (e) => e.status === 'PendingApproval',
  requestChanges: (e) => e.status === 'PendingApproval',
  // An approved entry may still be withdrawn while no money has moved; once paid out, the
  // payout batch must be deleted first (the entry is then Approved and unpaid again).
  cancel: (e) =>
    e.status === 'Draft' || e.status === 'ChangesRequested' || e.status === 'PendingApproval' || (e.status === 'Approved' && !e.isPaidOut),
  payOut: (e) => e.status === 'Approved' && !e.isPaidOut,
  reversePayout: (e) => e.isPaidOut,
};

const REFUSALS: Record<WorkflowAction, string> = {
  submit: 'cannot be submitted',
  approve: 'cannot be approved',
  reject: 'cannot be rejected',
  requestChanges: 'cannot be sent back for changes',
  cancel: 'cannot be cancelled',
  payOut: 'cannot be paid out',
  reversePayout: 'has no payout to reverse',
};

const describe = (e: TravelEntry): string => (e.isPaidOut ? `${e.status} (paid out)` : e.status);

export function isLegal(entry: TravelEntry, action: WorkflowAction): boolean {
  return LEGAL[action](entry);
}

/** 409 ENTRY_LOCKED for entries imported locked (no action applies to them), 409 INVALID_TRANSITION otherwise. */
export function assertLegal(entry: TravelEntry, action: WorkflowAction): void {
  if (entry.importLocked) throw entryLocked(entry);
  if (!LEGAL[action](entry)) {
    throw conflict('INVALID_TRANSITION', `The entry is ${describe(entry)} and ${REFUSALS[action]}.`, {
      currentStatus: entry.status,
      isPaidOut: entry.isPaidOut,
    });
  }
}

export function entryLocked(entry: TravelEntry): DomainError {
  const why = entry.importLocked ? 'it was imported from before 2023' : `it is ${describe(entry)}`;
  return conflict('ENTRY_LOCKED', `The entry is locked because ${why}.`, { currentStatus: entry.status, isPaidOut: entry.isPaidOut });
}
