// Travel entries: the `travelEntry` streams, their read model, the partner routes and the entry.*
// webhooks. The entry's audit log gets one record per domain event, so every TravelEntry* event
// maps to exactly one catalog event: creation (and a legacy import, which creates the entry here) is
// entry.created; the terminal approval through a workflow step (TravelEntryApproved) is
// entry.approved; the payout is entry.paidout; everything else, including TravelEntryAutoApproved
// (tenants without a workflow step with eligible approvers) and the deletion of a draft
// (TravelEntryDeleted, summary with isDeleted: true), is entry.updated.
import {
  TRAVEL_ENTRY_CATEGORY,
  travelEntryDecider,
  travelEntryWebhookSummary,
  type TravelEntryEvent,
  type TravelEntryState,
} from '../domain/travel-entries/index.js';
import { travelEntriesProjection } from '../../projections/travel-entries/projection.js';
import { travelEntryRoutes } from '../http/routes/travel-entries/routes.js';
import { travelEntryCreateRoutes } from '../http/routes/travel-entries/multipart-create.js';
import { travelEntryChildRoutes } from '../http/routes/travel-entries/children-routes.js';
import { travelEntryAttachmentRoutes } from '../http/routes/travel-entries/attachment-routes.js';
import { travelEntryWorkflowRoutes } from '../http/routes/travel-entries/workflow-routes.js';
import { travelEntryExportRoutes } from '../http/routes/travel-entries/export-routes.js';
import { travelEntryItineraryRoutes } from '../http/routes/travel-entries/per-diem-itinerary-routes.js';
import { travelEntryHistoryRoutes } from '../http/routes/travel-entries/history-routes.js';
import { travelEntrySchemas, TravelEntryPage } from '../http/routes/travel-entries/schemas.js';
import type { FeatureModule, WebhookSource } from './feature.js';

const webhooks: WebhookSource<TravelEntryState, TravelEntryEvent> = {
  category: TRAVEL_ENTRY_CATEGORY,
  decider: travelEntryDecider,
  catalogTypeOf(type) {
    switch (type) {
      case 'TravelEntryCreated':
      case 'TravelEntryImported':
        return 'entry.created';
      case 'TravelEntryApproved':
        return 'entry.approved';
      case 'TravelEntryPaidOut':
        return 'entry.paidout';
    }
    return type.startsWith('TravelEntry') ? 'entry.updated' : undefined;
  },
  // A deleted entry still has its summary (isDeleted: true) for the entry.updated of the deletion.
  summaryOf: travelEntryWebhookSummary,
};

export const travelEntriesFeature: FeatureModule = {
  name: 'travel-entries',
  projections: [travelEntriesProjection],
  routes: [
    travelEntryCreateRoutes,
    travelEntryRoutes,
    travelEntryChildRoutes,
    travelEntryItineraryRoutes,
    travelEntryAttachmentRoutes,
    travelEntryWorkflowRoutes,
    travelEntryExportRoutes,
    travelEntryHistoryRoutes,
  ],
  schemas: [...travelEntrySchemas, TravelEntryPage],
  webhooks,
};
