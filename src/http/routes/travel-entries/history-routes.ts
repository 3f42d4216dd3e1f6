// GET /travel-entries/{id}/history: the entry's recorded events for auditors (see ../audit/history-route.ts).
import { streamName, TRAVEL_ENTRY_CATEGORY } from '../../../domain/travel-entries/index.js';
import { historyRoutes } from '../audit/history-route.js';

export const travelEntryHistoryRoutes = historyRoutes({
  path: '/travel-entries',
  what: 'Travel entry',
  tags: ['Travel entries', 'Audit'],
  streamName,
  resourceType: TRAVEL_ENTRY_CATEGORY,
});
