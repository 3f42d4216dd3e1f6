// The travel-entry decider's dispatch: creation needs an absent entry, everything else an
// existing one (a deleted entry is not found: 404); content writes additionally need it unlocked
// (409 ENTRY_LOCKED).
import type { CommandContext } from '../decider.js';
import { notFound } from '../errors.js';
import type { TravelEntryCommand } from './commands.js';
import { decideCreate, decideImport } from './decide-create.js';
import { decideDelete } from './decide-delete.js';
import { decideRecordExport } from './decide-export.js';
import {
  decideAddAllocation,
  decideAddAttachments,
  decideAddExpense,
  decideAddPerDiem,
  decideChangeAllocation,
  decideChangeExpense,
  decideChangePerDiem,
  decideRemoveAllocation,
  decideRemoveAttachment,
  decideRemoveExpense,
  decideRemovePerDiem,
  decideReplace,
} from './decide-edits.js';
import { decidePerDiemsFromItinerary } from './decide-itinerary.js';
import { decidePayOut, decideReversePayout } from './decide-payout.js';
import { decideApprove, decideCancel, decideReject, decideRequestChanges, decideSubmit } from './decide-workflow.js';
import type { TravelEntryEvent } from './events.js';
import type { TravelEntry, TravelEntryState } from './state.js';
import { entryLocked } from './transitions.js';
import { judgeWithFacts } from './looked-up-facts.js';

function existing(state: TravelEntryState): TravelEntry {
  if (state.kind !== 'Existing') throw notFound('Travel entry');
  return state.entry;
}

function writable(state: TravelEntryState): TravelEntry {
  const entry = existing(state);
  if (entry.locked) throw entryLocked(entry);
  return entry;
}

export function decide(command: TravelEntryCommand, state: TravelEntryState, ctx: CommandContext): TravelEntryEvent[] {
  return judgeWithFacts(command.facts, () => dispatch(command, state, ctx));
}

function dispatch(command: TravelEntryCommand, state: TravelEntryState, ctx: CommandContext): TravelEntryEvent[] {
  switch (command.type) {
    case 'CreateTravelEntry':
      return decideCreate(command, state, ctx);
    case 'ImportTravelEntry':
      return decideImport(command, state, ctx);
    case 'ReplaceTravelEntry':
      return decideReplace(command, writable(state), ctx);
    case 'AddExpense':
      return decideAddExpense(command, writable(state), ctx);
    case 'ChangeExpense':
      return decideChangeExpense(command, writable(state), ctx);
    case 'RemoveExpense':
      return decideRemoveExpense(command, writable(state), ctx);
    case 'AddPerDiem':
      return decideAddPerDiem(command, writable(state), ctx);
    case 'ChangePerDiem':
      return decideChangePerDiem(command, writable(state), ctx);
    case 'RemovePerDiem':
      return decideRemovePerDiem(command, writable(state), ctx);
    case 'ReplacePerDiemsFromItinerary':
      return decidePerDiemsFromItinerary(command, writable(state), ctx);
    case 'AddAllocation':
      return decideAddAllocation(command, writable(state), ctx);
    case 'ChangeAllocation':
      return decideChangeAllocation(command, writable(state), ctx);
    case 'RemoveAllocation':
      return decideRemoveAllocation(command, writable(state), ctx);
    case 'AddAttachments':
      return decideAddAttachments(command, writable(state), ctx);
    case 'RemoveAttachment':
      return decideRemoveAttachment(command, writable(state), ctx);
    case 'SubmitTravelEntry':
      return decideSubmit(command, existing(state), ctx);
    case 'ApproveTravelEntry':
      return decideApprove(command, existing(state), ctx);
    case 'RejectTravelEntry':
      return decideReject(command, existing(state), ctx);
    case 'RequestTravelEntryChanges':
      return decideRequestChanges(command, existing(state), ctx);
    case 'CancelTravelEntry':
      return decideCancel(command, existing(state), ctx);
    case 'DeleteTravelEntry':
      return decideDelete(command, existing(state), ctx);
    case 'RecordTravelEntryExport':
      return decideRecordExport(command, existing(state), ctx);
    case 'MarkTravelEntryPaidOut':
      return decidePayOut(command, existing(state), ctx);
    case 'ReverseTravelEntryPayout':
      return decideReversePayout(command, existing(state), ctx);
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}
