// Creating an entry: the ordinary create (entry number allocated by the shell) and the legacy
// import, which records historical status and locks entries dated before 2023 for good.
import type { CommandContext } from '../decider.js';
import { conflict } from '../errors.js';
import { isUtcInstant } from '../shared/dates.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import { optionalText, textProblem } from '../shared/text.js';
import type { CreateTravelEntry, ImportTravelEntry, TravelEntryDraft } from './commands.js';
import type { TravelEntryEvent } from './events.js';
import type { TravelEntryStatus } from './model.js';
import type { TravelEntryState } from './state.js';
import { NO_CHILDREN, validateAttachments, validateContent } from './validate-content.js';
import { effectiveEntryDate } from './validate-details.js';
import { ENTRY_NUMBER, importedEntryNumberProblem } from './validate-entry-number.js';

export { ENTRY_NUMBER } from './validate-entry-number.js';

/**
 * The number a create is decided with: numbers are gap-free, so the shell reserves the real one only
 * after the decision passed and writes it into the TravelEntryCreated event before the append.
 */
export const PENDING_ENTRY_NUMBER = '0000-00000';

/** Imports from before this date are locked (the legacy system's closed years). */
export const IMPORT_LOCK_BEFORE = '2023-01-01';

/** The statuses a legacy entry can arrive in; PendingApproval cannot, as no workflow snapshot exists for it. */
export const IMPORT_STATUSES = ['Draft', 'Approved', 'Rejected', 'Cancelled'] as const satisfies readonly TravelEntryStatus[];

function assertAbsent(state: TravelEntryState, entryId: string): void {
  if (state.kind !== 'Absent') throw conflict('ENTRY_ALREADY_EXISTS', 'A travel entry with this id already exists.', { entryId });
}

/** The employee is fixed at creation; checked here with the content's other field errors. */
function employeeId(entry: TravelEntryDraft, errors: FieldErrorCollector): string {
  const id = optionalText(entry.employeeId);
  errors.check('employeeId', textProblem(id, { required: true, maxLength: 100 }));
  return id ?? '';
}

export function decideCreate(command: CreateTravelEntry, state: TravelEntryState, ctx: CommandContext): TravelEntryEvent[] {
  const { entryId, entryNumber, entry } = command.data;
  assertAbsent(state, entryId);
  const errors = new FieldErrorCollector();
  if (!ENTRY_NUMBER.test(entryNumber)) errors.add('entryNumber', 'Must look like 2026-00042.');
  const employee = employeeId(entry, errors);
  errors.throwIfAny();
  const content = validateContent(entry, NO_CHILDREN, ctx);
  const attachments = (command.data.attachments ?? []).length === 0 ? [] : validateAttachments(command.data.attachments ?? [], [], ctx);
  return [{ type: 'TravelEntryCreated', data: { entryId, entryNumber, employeeId: employee, content, attachments, at: ctx.now } }];
}

export function decideImport(command: ImportTravelEntry, state: TravelEntryState, ctx: CommandContext): TravelEntryEvent[] {
  const { entryId, entry } = command.data;
  assertAbsent(state, entryId);
  const errors = new FieldErrorCollector();
  const entryNumber = optionalText(command.data.entryNumber);
  if (errors.check('entryNumber', textProblem(entryNumber, { required: true, maxLength: 50 })) && entryNumber !== null) {
    errors.check('entryNumber', importedEntryNumberProblem(entryNumber, effectiveEntryDate(entry, ctx.now)));
  }
  const employee = employeeId(entry, errors);
  const status = (IMPORT_STATUSES as readonly string[]).includes(command.data.status) ? (command.data.status as TravelEntryStatus) : null;
  if (status === null) errors.add('status', `Must be one of ${IMPORT_STATUSES.join(', ')}.`);
  const paidOutAt = optionalText(command.data.paidOutAt);
  if (paidOutAt !== null && !isUtcInstant(paidOutAt)) errors.add('paidOutAt', 'Must be an ISO 8601 UTC instant.');
  if (paidOutAt !== null && status !== 'Approved') errors.add('paidOutAt', 'Only an Approved entry can have been paid out.');
  errors.throwIfAny();
  const content = validateContent(entry, NO_CHILDREN, ctx);
  return [
    {
      type: 'TravelEntryImported',
      data: {
        entryId,
        entryNumber: entryNumber ?? '',
        employeeId: employee,
        content,
        status: status ?? 'Draft',
        paidOutAt,
        locked: content.entryDate < IMPORT_LOCK_BEFORE,
        at: ctx.now,
      },
    },
  ];
}
