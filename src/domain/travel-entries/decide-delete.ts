// Deleting an entry: only one that was never submitted (Draft, not locked, no workflow snapshot)
// may go; everything else is a 409 INVALID_TRANSITION naming the status, like the workflow's refusals,
// but for an entry imported from before 2023: ENTRY_LOCKED, as for every other command on it.
import type { CommandContext } from '../decider.js';
import { conflict } from '../errors.js';
import type { DeleteTravelEntry } from './commands.js';
import type { TravelEntryEvent } from './events.js';
import type { TravelEntry } from './state.js';
import { entryLocked } from './transitions.js';

/** Never submitted and open for writing: the only entries that may be deleted. */
export const isDeletable = (e: TravelEntry): boolean => e.status === 'Draft' && !e.locked && e.workflow === null;

function describe(e: TravelEntry): string {
  if (e.isPaidOut) return `${e.status} (paid out)`;
  return e.status;
}

export function decideDelete(command: DeleteTravelEntry, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  // An entry imported from before 2023 answers ENTRY_LOCKED to every command (docs/workflow.md).
  if (entry.importLocked) throw entryLocked(entry);
  if (!isDeletable(entry)) {
    throw conflict('INVALID_TRANSITION', `The entry is ${describe(entry)} and cannot be deleted: only a never-submitted draft can.`, {
      currentStatus: entry.status,
      isPaidOut: entry.isPaidOut,
      locked: entry.locked,
    });
  }
  return [{ type: 'TravelEntryDeleted', data: { entryId: command.data.entryId, at: ctx.now } }];
}
