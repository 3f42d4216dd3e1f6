// Operations contributed by feature modules (rates import, webhook cleanup, ...).
import type { Operation } from './operations.js';
import { webhooksCleanup } from '../webhooks/operations.js';
import { ratesImport } from '../rates/import-operation.js';

export const extraOperations: Record<string, Operation> = {
  'webhooks cleanup': webhooksCleanup,
  'rates import': ratesImport,
};
