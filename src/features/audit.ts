// The auditor surface that belongs to no one feature: hash-chain verification and the schemas every
// history route shares (the history and as-of routes themselves live with their resources).
import { auditRoutes } from '../http/routes/audit/routes.js';
import { auditSchemas } from '../http/routes/audit/schemas.js';
import type { FeatureModule } from './feature.js';

export const auditFeature: FeatureModule = { name: 'audit', routes: [auditRoutes], schemas: auditSchemas };
