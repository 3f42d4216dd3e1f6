// A whole entry's content (create, import, full replacement) with every field problem reported
// at once. On a replacement a child row that sends back a stored id keeps that identity; a row
// without an id is new; an id the entry does not have is an error (not silently a new row).
import type { CommandContext } from '../decider.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import type { AttachmentFields, TravelEntryDraft } from './commands.js';
import type { Attachment, PerDiem, TravelEntryContent } from './model.js';
import { checkPerDiemList } from './per-diem-overlaps.js';
import { checkCompleteAllocations } from './allocations.js';
import { validateDetails } from './validate-details.js';
import {
  MAX_ATTACHMENTS_PER_REQUEST,
  validateAllocation,
  validateAttachment,
  validateExpense,
  validatePerDiem,
} from './validate-children.js';

/** Stored child ids by kind; empty on create. */
export interface KnownChildIds {
  expenses: ReadonlySet<string>;
  perDiems: ReadonlySet<string>;
  costCenterAllocations: ReadonlySet<string>;
}

export const NO_CHILDREN: KnownChildIds = { expenses: new Set(), perDiems: new Set(), costCenterAllocations: new Set() };

const KIND_NAMES: Record<keyof KnownChildIds, string> = {
  expenses: 'expense',
  perDiems: 'per diem',
  costCenterAllocations: 'cost-center allocation',
};

function rowIds(
  kind: keyof KnownChildIds,
  rows: ReadonlyArray<{ id?: string | null }>,
  known: KnownChildIds,
  errors: FieldErrorCollector,
  ctx: CommandContext,
): string[] {
  const used = new Set<string>();
  return rows.map((row, i) => {
    const id = row.id ?? null;
    if (id === null || id === '') return ctx.newId();
    if (!known[kind].has(id)) errors.add(`${kind}[${i}].id`, `This entry has no ${KIND_NAMES[kind]} with this id; omit the id to add one.`);
    else if (used.has(id)) errors.add(`${kind}[${i}].id`, 'Each id appears once.');
    used.add(id);
    return id;
  });
}

/** `storedPerDiems`: the rows a replacement changes (per-diem-overlaps.ts). */
export function validateContent(
  input: TravelEntryDraft,
  known: KnownChildIds,
  ctx: CommandContext,
  storedPerDiems: readonly PerDiem[] = [],
): TravelEntryContent {
  const errors = new FieldErrorCollector();
  const details = validateDetails(input, ctx.now, errors);
  const expenses = input.expenses ?? [];
  const perDiems = input.perDiems ?? [];
  const allocations = input.costCenterAllocations ?? [];
  const expenseIds = rowIds('expenses', expenses, known, errors, ctx);
  const perDiemIds = rowIds('perDiems', perDiems, known, errors, ctx);
  const allocationIds = rowIds('costCenterAllocations', allocations, known, errors, ctx);
  const content: TravelEntryContent = {
    ...details,
    expenses: expenses.map((e, i) => validateExpense(e, expenseIds[i] ?? '', errors, `expenses[${i}]`)),
    perDiems: perDiems.map((p, i) => validatePerDiem(p, perDiemIds[i] ?? '', errors, `perDiems[${i}]`)),
    costCenterAllocations: allocations.map((a, i) => validateAllocation(a, allocationIds[i] ?? '', errors, `costCenterAllocations[${i}]`)),
  };
  if (!Object.keys(errors.errors).some((k) => k.startsWith('costCenterAllocations['))) {
    checkCompleteAllocations(content.costCenterAllocations, errors);
  }
  // A legacy import's rows (no statutory facts) are history, stored as the old system paid them.
  if (perDiems.every((p) => p.statutory !== undefined)) checkPerDiemList(content.perDiems, errors, storedPerDiems);
  errors.throwIfAny();
  return content;
}

/** One upload request: 1 to 5 files, distinct ids. */
export function validateAttachments(
  input: readonly AttachmentFields[],
  existing: readonly Attachment[],
  ctx: CommandContext,
): Attachment[] {
  const errors = new FieldErrorCollector();
  if (input.length === 0) errors.add('attachments', 'At least one file.');
  if (input.length > MAX_ATTACHMENTS_PER_REQUEST) errors.add('attachments', `At most ${MAX_ATTACHMENTS_PER_REQUEST} files per request.`);
  const taken = new Set(existing.map((a) => a.id));
  const result = input.map((a, i) => {
    const attachment = validateAttachment(a, ctx.now, errors, `attachments[${i}]`);
    if (taken.has(attachment.id)) errors.add(`attachments[${i}].id`, 'An attachment with this id already exists.');
    taken.add(attachment.id);
    return attachment;
  });
  errors.throwIfAny();
  return result;
}
