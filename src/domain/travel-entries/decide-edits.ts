// Writes to an entry's content: the full replacement and the single-row commands. All of them
// require an unlocked entry (Draft or ChangesRequested, not paid out, not import-locked): 409
// ENTRY_LOCKED otherwise. A write that changes nothing records nothing.
import type { CommandContext } from '../decider.js';
import { notFound } from '../errors.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import { isDate } from '../shared/dates.js';
import { optionalText, sameJson } from '../shared/text.js';
import { checkPartialAllocations } from './allocations.js';
import { checkPerDiemRow } from './per-diem-overlaps.js';
import type {
  AddAllocation,
  AddAttachments,
  AddExpense,
  AddPerDiem,
  ChangeAllocation,
  ChangeExpense,
  ChangePerDiem,
  RemoveAllocation,
  RemoveAttachment,
  RemoveExpense,
  RemovePerDiem,
  ReplaceTravelEntry,
} from './commands.js';
import type { TravelEntryEvent } from './events.js';
import type { TravelEntryContent } from './model.js';
import type { TravelEntry } from './state.js';
import { validateAllocation, validateExpense, validatePerDiem } from './validate-children.js';
import { validateAttachments, validateContent } from './validate-content.js';
import { parseEntryNumber } from './validate-entry-number.js';

/** The stored values of exactly the fields a replacement sets (the content's own keys). */
function storedCounterpart(content: TravelEntryContent, entry: TravelEntry): Record<string, unknown> {
  return Object.fromEntries(Object.keys(content).map((key) => [key, entry[key as keyof TravelEntry]]));
}

export function decideReplace(command: ReplaceTravelEntry, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const input = withStoredEntryDate(command.data.entry, entry);
  const errors = new FieldErrorCollector();
  if (optionalText(input.employeeId) !== entry.employeeId) errors.add('employeeId', "An entry's employee cannot be changed.");
  // Only a date the replacement changes: before session 23 an edit re-dated entries to the day it
  // was made, and such an entry must stay editable with the date it has.
  if (input.entryDate !== entry.entryDate) errors.check('entryDate', entryDateYearProblem(entry.entryNumber, String(input.entryDate)));
  errors.throwIfAny();
  const known = {
    expenses: new Set(entry.expenses.map((r) => r.id)),
    perDiems: new Set(entry.perDiems.map((r) => r.id)),
    costCenterAllocations: new Set(entry.costCenterAllocations.map((r) => r.id)),
  };
  const content = validateContent(input, known, ctx, entry.perDiems);
  if (sameJson(content, storedCounterpart(content, entry))) return [];
  return [{ type: 'TravelEntryReplaced', data: { entryId: entry.id, content, at: ctx.now } }];
}

/**
 * A replacement that omits `entryDate` keeps the stored one. The entry date is never empty, so
 * omitting it cannot mean clearing it as it does for other optional fields; defaulting to today, as
 * a create does, moved the advance's conversion date (and a CZ entry's per-diem date) on an edit of
 * the purpose (outside try, session 23). The shell applies the same rule before it converts.
 */
export function withStoredEntryDate<T extends { entryDate?: string | null }>(input: T, entry: Pick<TravelEntry, 'entryDate'>): T {
  return optionalText(input.entryDate) === null ? { ...input, entryDate: entry.entryDate } : input;
}

/**
 * An entry numbered `YYYY-NNNNN` keeps an entry date in that year: the number is the year of its
 * entry date (docs/domain.md), as an import is held to. Legacy numbers of other shapes name no year.
 */
function entryDateYearProblem(entryNumber: string, entryDate: string): string | null {
  const year = parseEntryNumber(entryNumber)?.year;
  if (year === undefined || !isDate(entryDate) || entryDate.startsWith(`${year}-`)) return null;
  return `Must be in ${year}, the year of the entry number ${entryNumber}.`;
}

function find<T extends { id: string }>(rows: readonly T[], id: string, what: string): T {
  const row = rows.find((r) => r.id === id);
  if (row === undefined) throw notFound(what);
  return row;
}

function validated<T>(build: (errors: FieldErrorCollector) => T): T {
  const errors = new FieldErrorCollector();
  const value = build(errors);
  errors.throwIfAny();
  return value;
}

export function decideAddExpense(c: AddExpense, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const expense = validated((errors) => validateExpense(c.data.expense, ctx.newId(), errors, ''));
  return [{ type: 'TravelEntryExpenseAdded', data: { entryId: entry.id, expense, at: ctx.now } }];
}

export function decideChangeExpense(c: ChangeExpense, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const stored = find(entry.expenses, c.data.expenseId, 'Expense');
  const expense = validated((errors) => validateExpense(c.data.expense, stored.id, errors, ''));
  if (sameJson(expense, stored)) return [];
  return [{ type: 'TravelEntryExpenseChanged', data: { entryId: entry.id, expense, at: ctx.now } }];
}

export function decideRemoveExpense(c: RemoveExpense, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const stored = find(entry.expenses, c.data.expenseId, 'Expense');
  return [{ type: 'TravelEntryExpenseRemoved', data: { entryId: entry.id, expenseId: stored.id, at: ctx.now } }];
}

export function decideAddPerDiem(c: AddPerDiem, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const perDiem = validated((errors) => {
    const row = validatePerDiem(c.data.perDiem, ctx.newId(), errors, '');
    checkPerDiemRow(row, entry.perDiems, errors);
    return row;
  });
  return [{ type: 'TravelEntryPerDiemAdded', data: { entryId: entry.id, perDiem, at: ctx.now } }];
}

/** A full replacement of the row: an omitted override is cleared. */
export function decideChangePerDiem(c: ChangePerDiem, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const stored = find(entry.perDiems, c.data.perDiemId, 'Per diem');
  const perDiem = validated((errors) => {
    const row = validatePerDiem(c.data.perDiem, stored.id, errors, '');
    checkPerDiemRow(row, entry.perDiems, errors);
    return row;
  });
  if (sameJson(perDiem, stored)) return [];
  return [{ type: 'TravelEntryPerDiemChanged', data: { entryId: entry.id, perDiem, at: ctx.now } }];
}

export function decideRemovePerDiem(c: RemovePerDiem, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const stored = find(entry.perDiems, c.data.perDiemId, 'Per diem');
  return [{ type: 'TravelEntryPerDiemRemoved', data: { entryId: entry.id, perDiemId: stored.id, at: ctx.now } }];
}

export function decideAddAllocation(c: AddAllocation, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const allocation = validated((errors) => {
    const row = validateAllocation(c.data.allocation, ctx.newId(), errors, '');
    if (errors.isEmpty) checkPartialAllocations([...entry.costCenterAllocations, row], errors);
    return row;
  });
  return [{ type: 'TravelEntryAllocationAdded', data: { entryId: entry.id, allocation, at: ctx.now } }];
}

export function decideChangeAllocation(c: ChangeAllocation, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const stored = find(entry.costCenterAllocations, c.data.allocationId, 'Cost-center allocation');
  const allocation = validated((errors) => {
    const row = validateAllocation(c.data.allocation, stored.id, errors, '');
    if (errors.isEmpty)
      checkPartialAllocations(
        entry.costCenterAllocations.map((r) => (r.id === row.id ? row : r)),
        errors,
      );
    return row;
  });
  if (sameJson(allocation, stored)) return [];
  return [{ type: 'TravelEntryAllocationChanged', data: { entryId: entry.id, allocation, at: ctx.now } }];
}

export function decideRemoveAllocation(c: RemoveAllocation, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const stored = find(entry.costCenterAllocations, c.data.allocationId, 'Cost-center allocation');
  return [{ type: 'TravelEntryAllocationRemoved', data: { entryId: entry.id, allocationId: stored.id, at: ctx.now } }];
}

export function decideAddAttachments(c: AddAttachments, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const attachments = validateAttachments(c.data.attachments, entry.attachments, ctx);
  return [{ type: 'TravelEntryAttachmentsAdded', data: { entryId: entry.id, attachments, at: ctx.now } }];
}

export function decideRemoveAttachment(c: RemoveAttachment, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const stored = find(entry.attachments, c.data.attachmentId, 'Attachment');
  return [{ type: 'TravelEntryAttachmentRemoved', data: { entryId: entry.id, attachmentId: stored.id, at: ctx.now } }];
}
