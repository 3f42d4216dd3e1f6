// The tombstone of a deleted travel entry, as DELETE answers it and `includeDeleted=true` lists it:
// enough to find and drop the entry on the client's side, nothing of its content.
import type { TravelEntry } from '../../../domain/travel-entries/index.js';

export function presentTombstone(entry: TravelEntry, deletedAt: string) {
  return {
    id: entry.id,
    entryNumber: entry.entryNumber,
    employeeId: entry.employeeId,
    isDeleted: true as const,
    deletedAt,
    createdAt: entry.createdAt,
    editedAt: entry.editedAt,
  };
}
