// Entry numbers as two small deciders, so every number is written by the one write path:
//  - the tenant-year sequence (`entryNumbers-{tenantId}-{year}`): each reservation takes the next
//    sequence number, gap-free, at the stream's exact revision;
//  - the claim of one number (`entryNumber-{tenantId}-{number}`): exactly one entry per tenant holds
//    a number, created or imported. Claiming again for the same entry records nothing (a retried
//    command); for another entry it is 409 ENTRY_NUMBER_TAKEN.
// See docs/domain.md, "Entry numbers", and src/application/travel-entries/entry-numbers.ts.
import type { Decider } from '../decider.js';
import { conflict } from '../errors.js';
import { parseEntryNumber } from './validate-entry-number.js';

export const ENTRY_NUMBER_TAKEN = 'ENTRY_NUMBER_TAKEN';

export const entryNumberStream = (tenantId: string, year: string): string => `entryNumbers-${tenantId}-${year}`;

export const formatEntryNumber = (year: string, sequence: number): string => `${year}-${String(sequence).padStart(5, '0')}`;

/**
 * Numbers compare case-insensitively (`leg-1` is `LEG-1`: one legacy number typed twice) and with
 * leading zeros of the sequence ignored (`2026-000042` is `2026-00042`).
 */
export function entryNumberKey(entryNumber: string): string {
  const standard = parseEntryNumber(entryNumber);
  return standard ? formatEntryNumber(standard.year, standard.sequence) : entryNumber.toUpperCase();
}

/** The claim stream of one number; the number is percent-encoded, so `/` in a legacy number stays one name. */
export const entryNumberClaimStream = (tenantId: string, entryNumber: string): string =>
  `entryNumber-${tenantId}-${encodeURIComponent(entryNumberKey(entryNumber))}`;

export const entryNumberTaken = (entryNumber: string) =>
  conflict(ENTRY_NUMBER_TAKEN, `Entry number ${entryNumber} is already taken by another entry of this company.`, { entryNumber });

// The sequence. Its state is its last reservation, so the last event alone folds to it.

export type EntryNumberReserved = { type: 'EntryNumberReserved'; data: { sequence: number; entryNumber: string; entryId: string } };
export type ReserveEntryNumber = { type: 'ReserveEntryNumber'; data: { year: string; entryId: string } };
export interface EntryNumberSequence {
  last: number;
}

export const entryNumberSequenceDecider: Decider<ReserveEntryNumber, EntryNumberSequence, EntryNumberReserved> = {
  initialState: () => ({ last: 0 }),
  evolve: (_state, event) => ({ last: event.data.sequence }),
  decide: ({ data }, state) => {
    const sequence = state.last + 1;
    return [
      { type: 'EntryNumberReserved', data: { sequence, entryNumber: formatEntryNumber(data.year, sequence), entryId: data.entryId } },
    ];
  },
};

// The claim of one number.

export type EntryNumberClaimed = {
  type: 'EntryNumberClaimed';
  data: { entryNumber: string; entryId: string; origin: 'created' | 'imported' };
};
export type ClaimEntryNumber = { type: 'ClaimEntryNumber'; data: EntryNumberClaimed['data'] };
export interface EntryNumberClaim {
  holder: string | undefined;
}

export const entryNumberClaimDecider: Decider<ClaimEntryNumber, EntryNumberClaim, EntryNumberClaimed> = {
  initialState: () => ({ holder: undefined }),
  // The first claim holds the number for good.
  evolve: (state, event) => (state.holder === undefined ? { holder: event.data.entryId } : state),
  decide: ({ data }, state) => {
    if (state.holder === undefined) return [{ type: 'EntryNumberClaimed', data }];
    if (state.holder === data.entryId) return [];
    throw entryNumberTaken(data.entryNumber);
  },
};
