// `webhooks cleanup`: the retention job, on demand.
import { cleanupDeliveries } from '../webhooks/delivery/retention.js';
import type { Operation } from './operation.js';

export const webhooksOperations: Record<string, Operation> = {
  'webhooks cleanup': async ({ db }) => cleanupDeliveries(db),
};
