// Submit, approve, reject, request changes, cancel. See docs/workflow.md for the table.
import type { CommandContext } from '../decider.js';
import { DomainError } from '../errors.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import { optionalText } from '../shared/text.js';
import { checkCompleteAllocations } from './allocations.js';
import type {
  ApproverFacts,
  ApproveTravelEntry,
  CancelTravelEntry,
  RejectTravelEntry,
  RequestTravelEntryChanges,
  SubmitTravelEntry,
} from './commands.js';
import type { TravelEntryEvent } from './events.js';
import type { ApprovalStep } from './model.js';
import type { TravelEntry } from './state.js';
import { assertLegal } from './transitions.js';
import { resolveWorkflow } from './workflow.js';

export function decideSubmit(c: SubmitTravelEntry, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  assertLegal(entry, 'submit');
  // Single-row allocation edits may leave a draft below 100 %; nobody approves such an entry.
  const errors = new FieldErrorCollector();
  checkCompleteAllocations(entry.costCenterAllocations, errors);
  errors.throwIfAny();
  const { steps, skippedStepIds } = resolveWorkflow(c.data.workflowSteps, entry.employeeId);
  const submitted: TravelEntryEvent = { type: 'TravelEntrySubmitted', data: { entryId: entry.id, steps, skippedStepIds, at: ctx.now } };
  if (steps.length > 0) return [submitted];
  // No step with an eligible approver: approved at once, as a distinct event (entry.updated, not entry.approved).
  return [submitted, { type: 'TravelEntryAutoApproved', data: { entryId: entry.id, at: ctx.now } }];
}

/** The step awaiting a decision, if `approver` may decide it: listed on the step's snapshot and still an active employee. */
function currentStepFor(entry: TravelEntry, approver: ApproverFacts): { stepIndex: number; step: ApprovalStep } {
  const stepIndex = entry.workflow?.currentStepIndex ?? 0;
  const step = entry.workflow?.steps[stepIndex];
  if (step === undefined || !step.approverIds.includes(approver.approverId) || !approver.approverIsActiveEmployee) {
    throw new DomainError(
      'NOT_AN_ELIGIBLE_APPROVER',
      step === undefined
        ? 'The entry has no approval step awaiting a decision.'
        : `The employee is not an eligible approver of the step "${step.name}".`,
      undefined,
      { approverId: approver.approverId, stepId: step?.stepId ?? null },
    );
  }
  return { stepIndex, step };
}

export function decideApprove(c: ApproveTravelEntry, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  assertLegal(entry, 'approve');
  const { stepIndex, step } = currentStepFor(entry, c.data);
  const data = {
    entryId: entry.id,
    stepIndex,
    stepId: step.stepId,
    approverId: c.data.approverId,
    comment: optionalText(c.data.comment),
    at: ctx.now,
  };
  const isLast = stepIndex === (entry.workflow?.steps.length ?? 0) - 1;
  return [isLast ? { type: 'TravelEntryApproved', data } : { type: 'TravelEntryStepApproved', data }];
}

export function decideReject(c: RejectTravelEntry, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  assertLegal(entry, 'reject');
  const { stepIndex, step } = currentStepFor(entry, c.data);
  return [
    {
      type: 'TravelEntryRejected',
      data: {
        entryId: entry.id,
        stepIndex,
        stepId: step.stepId,
        approverId: c.data.approverId,
        reason: optionalText(c.data.reason),
        at: ctx.now,
      },
    },
  ];
}

export function decideRequestChanges(c: RequestTravelEntryChanges, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  assertLegal(entry, 'requestChanges');
  const { stepIndex, step } = currentStepFor(entry, c.data);
  return [
    {
      type: 'TravelEntryChangesRequested',
      data: {
        entryId: entry.id,
        stepIndex,
        stepId: step.stepId,
        approverId: c.data.approverId,
        reason: optionalText(c.data.reason),
        at: ctx.now,
      },
    },
  ];
}

export function decideCancel(c: CancelTravelEntry, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  assertLegal(entry, 'cancel');
  return [
    {
      type: 'TravelEntryCancelled',
      data: { entryId: entry.id, previousStatus: entry.status, reason: optionalText(c.data.reason), at: ctx.now },
    },
  ];
}
