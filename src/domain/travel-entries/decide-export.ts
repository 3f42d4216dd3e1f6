// Export write-back (issue 11): an ERP connector reports that it posted the entry (or failed to).
// It changes no content, so it is allowed whatever the status and lock (an approved, paid-out or
// imported entry is exactly what gets posted); only a deleted entry is gone (404, in decide.ts).
import type { CommandContext } from '../decider.js';
import { FieldErrorCollector } from '../shared/field-errors.js';
import { characterCount, optionalText, textProblem } from '../shared/text.js';
import { EXPORT_STATUSES, type ExportStatus, type RecordTravelEntryExport } from './commands.js';
import type { TravelEntryEvent } from './events.js';
import type { TravelEntry } from './state.js';

/** A short slug naming the receiving system (`sap-fi`, `datev`, `pantheon.eu`): it becomes a filter value and a JSON key. */
export const EXPORT_SYSTEM_PATTERN = '^[a-z0-9](?:[a-z0-9._-]{0,38}[a-z0-9])?$';
const SYSTEM = new RegExp(EXPORT_SYSTEM_PATTERN);
const MAX_EXTERNAL_ID = 200;
const MAX_URL = 2000;
const MAX_REASON = 1000;
// Control characters have no place in an id, a link or a one-line reason.
const CONTROL = /[\u0000-\u001f\u007f]/;

const isExportStatus = (s: string): s is ExportStatus => (EXPORT_STATUSES as readonly string[]).includes(s);

function urlProblem(url: string): string | null {
  if (characterCount(url) > MAX_URL) return `At most ${MAX_URL} characters.`;
  if (!/^https:\/\/[^\s/?#]+[^\s]*$/i.test(url)) return 'Must be an absolute https URL.';
  return null;
}

export function decideRecordExport(command: RecordTravelEntryExport, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const f = command.data;
  const errors = new FieldErrorCollector();
  const system = f.system.trim();
  errors.check('system', SYSTEM.test(system) ? null : 'A slug of 1 to 40 lower-case letters, digits, dots, dashes or underscores.');
  errors.check('status', isExportStatus(f.status) ? null : `One of ${EXPORT_STATUSES.join(', ')}.`);
  const externalId = optionalText(f.externalId);
  const externalUrl = optionalText(f.externalUrl);
  const failureReason = optionalText(f.failureReason);
  if (errors.check('externalId', textProblem(externalId, { required: false, maxLength: MAX_EXTERNAL_ID })) && externalId !== null) {
    errors.check('externalId', CONTROL.test(externalId) ? 'No control characters.' : null);
  }
  if (externalUrl !== null) errors.check('externalUrl', urlProblem(externalUrl));
  if (failureReason !== null) {
    if (f.status !== 'failed') errors.add('failureReason', 'Only with status failed.');
    else errors.check('failureReason', textProblem(failureReason, { required: false, maxLength: MAX_REASON }));
  }
  errors.throwIfAny();
  return [
    {
      type: 'TravelEntryExportRecorded',
      data: {
        entryId: entry.id,
        at: ctx.now,
        system,
        status: f.status as ExportStatus,
        externalId,
        externalUrl,
        failureReason,
      },
    },
  ];
}
