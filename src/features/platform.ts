// The route groups that are not event-sourced features: the company profile, reference data
// (exchange rates) and the webhook subscriptions and delivery log (their state is in tables, not
// streams; what they deliver comes from the features that declare `webhooks`).
import { companyRoutes } from '../http/routes/company/routes.js';
import { referenceRoutes, ExchangeRate } from '../http/routes/reference/routes.js';
import { webhookRoutes } from '../http/routes/webhooks/routes.js';
import { webhookSchemas } from '../http/routes/webhooks/schemas.js';
import { perDiemRoutes } from '../http/routes/per-diems/routes.js';
import { perDiemSchemas } from '../http/routes/per-diems/schemas.js';
import type { FeatureModule } from './feature.js';

export const companyFeature: FeatureModule = { name: 'company', routes: [companyRoutes] };

export const webhookSubscriptionsFeature: FeatureModule = { name: 'webhooks', routes: [webhookRoutes], schemas: webhookSchemas };

export const referenceFeature: FeatureModule = { name: 'reference', routes: [referenceRoutes], schemas: [ExchangeRate] };

export const perDiemsFeature: FeatureModule = { name: 'per-diems', routes: [perDiemRoutes], schemas: perDiemSchemas };
