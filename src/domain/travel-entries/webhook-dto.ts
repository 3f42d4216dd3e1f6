// The PII-free travel-entry summary carried by entry.* webhooks (spec, TravelEntryWebhookDto, plus
// isLocked and isPaidOut). Fields are picked one by one, never spread from the entry, so nothing
// added to the entry can leak into a payload: no destination, purpose, report, notes, nor any
// expense, per-diem, allocation or attachment detail. Append-only in v1.
import type { TravelEntry, TravelEntryState } from './state.js';
import { TRAVEL_ENTRY_STATUS_CODES } from './model.js';

export interface TravelEntryWebhookDto {
  id: string;
  entryNumber: string;
  employeeId: string;
  departureDate: string;
  returnDate: string;
  /** Fixed integers: Draft 0, PendingApproval 1, Approved 2, Rejected 3, Cancelled 4, ChangesRequested 5. */
  status: number;
  advancePayment: number;
  currencyCode: string;
  advancePaymentInBaseCurrency: number;
  createdAt: string;
  editedAt: string;
  isLocked: boolean;
  isPaidOut: boolean;
  /** True in the one entry.updated of a deletion (TravelEntryDeleted); the other fields are the entry as it was deleted. */
  isDeleted: boolean;
}

export function toTravelEntryWebhookDto(entry: TravelEntry, isDeleted = false): TravelEntryWebhookDto {
  return {
    id: entry.id,
    entryNumber: entry.entryNumber,
    employeeId: entry.employeeId,
    departureDate: entry.departureDate,
    returnDate: entry.returnDate,
    status: TRAVEL_ENTRY_STATUS_CODES[entry.status],
    // JSON numbers on the wire; the decimal string has at most 2 places, which a double holds exactly enough to print back.
    advancePayment: Number(entry.advancePayment),
    currencyCode: entry.currencyCode,
    advancePaymentInBaseCurrency: Number(entry.advancePaymentInBaseCurrency),
    createdAt: entry.createdAt,
    editedAt: entry.editedAt,
    isLocked: entry.locked,
    isPaidOut: entry.isPaidOut,
    isDeleted,
  };
}

/** The summary of any state with an entry (a deleted one included); undefined before creation. */
export function travelEntryWebhookSummary(state: TravelEntryState): TravelEntryWebhookDto | undefined {
  if (state.kind === 'Existing') return toTravelEntryWebhookDto(state.entry);
  if (state.kind === 'Deleted') return toTravelEntryWebhookDto(state.entry, true);
  return undefined;
}
