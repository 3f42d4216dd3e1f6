// The route groups that are not event-sourced features: the company profile, reference data
// (exchange rates, countries, currencies, municipalities) and the webhook subscriptions and delivery log (their state is in tables, not
// streams; what they deliver comes from the features that declare `webhooks`).
import { Company, companyRoutes } from '../http/routes/company/routes.js';
import { referenceRoutes, ExchangeRate } from '../http/routes/reference/routes.js';
import { municipalityRoutes, municipalitySchemas } from '../http/routes/reference/municipalities.js';
import { countryCurrencyRoutes, countryCurrencySchemas } from '../http/routes/reference/countries-currencies.js';
import { webhookRoutes } from '../http/routes/webhooks/routes.js';
import { webhookSchemas } from '../http/routes/webhooks/schemas.js';
import { perDiemRoutes } from '../http/routes/per-diems/routes.js';
import { perDiemSchemas } from '../http/routes/per-diems/schemas.js';
import type { FeatureModule } from './feature.js';

export const companyFeature: FeatureModule = { name: 'company', routes: [companyRoutes], schemas: [Company] };

export const webhookSubscriptionsFeature: FeatureModule = { name: 'webhooks', routes: [webhookRoutes], schemas: webhookSchemas };

export const referenceFeature: FeatureModule = {
  name: 'reference',
  routes: [referenceRoutes, municipalityRoutes, countryCurrencyRoutes],
  schemas: [ExchangeRate, ...municipalitySchemas, ...countryCurrencySchemas],
};

export const perDiemsFeature: FeatureModule = { name: 'per-diems', routes: [perDiemRoutes], schemas: perDiemSchemas };
