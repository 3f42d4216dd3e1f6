// Webhook routes: subscriptions, and their delivery logs.
import type { FastifyPluginAsync } from 'fastify';
import { webhookDeliveryRoutes } from './delivery-routes.js';
import { webhookSubscriptionRoutes } from './subscription-routes.js';

export const webhookRoutes: FastifyPluginAsync = async (app) => {
  await app.register(webhookSubscriptionRoutes);
  await app.register(webhookDeliveryRoutes);
};
