// The feature registry: the one list of what the partner interface is made of. The route index
// (src/http/routes/index.ts), the projection index (projections/index.ts), the webhook catalog
// (src/webhooks/catalog/mapping.ts) and the resource snapshots read from it. A new feature is one
// line here (see docs/architecture.md, "Adding a resource"). The order is the order routes are
// registered and schemas listed in the OpenAPI document.
import type { FeatureModule, WebhookSource } from './feature.js';
import { companyFeature, perDiemsFeature, referenceFeature, webhookSubscriptionsFeature } from './platform.js';
import { employeesFeature } from './employees.js';
import { travelEntriesFeature } from './travel-entries.js';
import { payoutsFeature } from './payouts.js';
import { departmentsFeature } from './departments.js';
import { vehiclesFeature } from './vehicles.js';
import { costCentersFeature } from './cost-centers.js';
import { auditFeature } from './audit.js';
import { eventFeedFeature } from './event-feed.js';

export const features: readonly FeatureModule[] = [
  companyFeature,
  employeesFeature,
  webhookSubscriptionsFeature,
  travelEntriesFeature,
  payoutsFeature,
  departmentsFeature,
  vehiclesFeature,
  costCentersFeature,
  perDiemsFeature,
  referenceFeature,
  auditFeature,
  eventFeedFeature(() => webhookSources),
];

/** The features partners get webhooks for, with their catalog mapping and summary. */
export const webhookSources: readonly WebhookSource[] = features.flatMap((f) => (f.webhooks ? [f.webhooks] : []));
