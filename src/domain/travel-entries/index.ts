// The travel-entry decider (stream `travelEntry-{id}`) and its public types and helpers.
import type { Decider } from '../decider.js';
import type { TravelEntryCommand } from './commands.js';
import { decide } from './decide.js';
import type { TravelEntryEvent } from './events.js';
import { evolve, initialState, type TravelEntryState } from './state.js';

export const travelEntryDecider: Decider<TravelEntryCommand, TravelEntryState, TravelEntryEvent> = { initialState, evolve, decide };

/** The stream category (the part of a stream id before the first '-'): the feature's identity in the store. */
export const TRAVEL_ENTRY_CATEGORY = 'travelEntry';
export const streamName = (entryId: string): string => `${TRAVEL_ENTRY_CATEGORY}-${entryId}`;

export type * from './commands.js';
export type * from './events.js';
export type * from './model.js';
export type { TravelEntry, TravelEntryState } from './state.js';
export { isLocked } from './state.js';
export { TRAVEL_ENTRY_STATUSES, TRAVEL_ENTRY_STATUS_CODES, TRAVEL_TYPES } from './model.js';
export { ENTRY_NUMBER, IMPORT_LOCK_BEFORE, IMPORT_STATUSES, PENDING_ENTRY_NUMBER } from './decide-create.js';
export { advanceRateDate, effectiveEntryDate, perDiemAdvanceDate } from './validate-details.js';
export { withStoredEntryDate } from './decide-edits.js';
export { legacyMealsToCounts, derivedMealsProvided } from './per-diem-meals.js';
export { resolveWorkflow } from './workflow.js';
export { isLegal, type WorkflowAction } from './transitions.js';
export { MAX_ATTACHMENTS_PER_REQUEST } from './validate-children.js';
export { EXCHANGE_RATE_UNAVAILABLE, type LookedUpFacts } from './looked-up-facts.js';
export { toTravelEntryWebhookDto, travelEntryWebhookSummary, type TravelEntryWebhookDto } from './webhook-dto.js';
export { isDeletable } from './decide-delete.js';
