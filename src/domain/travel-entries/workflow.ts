// Approval workflow resolution (spec, States and transitions; issue 3). The shell supplies the
// tenant's steps with their eligible approvers (active, not archived employees of the tenant);
// the core removes the entry's own employee, then skips every step left without an approver.
// The result is snapshotted in TravelEntrySubmitted, so later changes to the tenant's workflow
// or staff do not move an entry already under review, and the audit trail says who could act.
import type { WorkflowStepFacts } from './commands.js';
import type { ApprovalStep } from './model.js';

export interface ResolvedWorkflow {
  steps: ApprovalStep[];
  skippedStepIds: string[];
}

export function resolveWorkflow(tenantSteps: readonly WorkflowStepFacts[], entryEmployeeId: string): ResolvedWorkflow {
  const steps: ApprovalStep[] = [];
  const skippedStepIds: string[] = [];
  for (const step of tenantSteps) {
    // Nobody approves their own trip; duplicates in the lookup collapse. Without case: an entry
    // recorded before ids were lower-cased at the door may hold its employee's id upper-case.
    const self = entryEmployeeId.toLowerCase();
    const approverIds = [...new Set(step.eligibleApproverIds)].filter((id) => id.toLowerCase() !== self);
    if (approverIds.length === 0) skippedStepIds.push(step.stepId);
    else steps.push({ stepId: step.stepId, name: step.name, approverIds });
  }
  return { steps, skippedStepIds };
}
