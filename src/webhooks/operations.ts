// Operator operations of the webhooks module (CLI and admin API).
import type { Operation } from '../admin/operations.js';
import { cleanupDeliveries } from './retention.js';

/** `npm run cli -- webhooks cleanup`: the retention job, on demand. */
export const webhooksCleanup: Operation = async ({ db }) => cleanupDeliveries(db);
