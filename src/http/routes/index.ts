// Every partner route group, mounted under /api/v1.
import type { FastifyPluginAsync } from 'fastify';
import { companyRoutes } from './company/routes.js';
import { employeeRoutes } from './employees/routes.js';
import { Employee, EmployeeBody } from './employees/schemas.js';
import { webhookRoutes } from './webhooks/routes.js';
import { webhookSchemas } from './webhooks/schemas.js';
import { travelEntryRoutes } from './travel-entries/routes.js';
import { travelEntryChildRoutes } from './travel-entries/children-routes.js';
import { travelEntryAttachmentRoutes } from './travel-entries/attachment-routes.js';
import { travelEntryWorkflowRoutes } from './travel-entries/workflow-routes.js';
import { travelEntrySchemas, TravelEntryPage } from './travel-entries/schemas.js';
import { payoutRoutes, PayoutBatch, PayoutMethod } from './payouts/routes.js';
import { referenceRoutes, ExchangeRate } from './reference/routes.js';

/**
 * Named schemas referenced with Type.Ref. They are added on the root instance (see buildApp):
 * a schema added inside a route plugin would give that plugin a fresh schema controller and
 * silently drop the strict body validator.
 */
export const sharedSchemas = [
  Employee,
  EmployeeBody,
  ...travelEntrySchemas,
  TravelEntryPage,
  PayoutMethod,
  PayoutBatch,
  ExchangeRate,
  ...webhookSchemas,
];

export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(companyRoutes);
  await app.register(employeeRoutes);
  await app.register(webhookRoutes);
  await app.register(travelEntryRoutes);
  await app.register(travelEntryChildRoutes);
  await app.register(travelEntryAttachmentRoutes);
  await app.register(travelEntryWorkflowRoutes);
  await app.register(payoutRoutes);
  await app.register(referenceRoutes);
};
