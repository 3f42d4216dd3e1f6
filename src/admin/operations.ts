// Operator operations, shared by the CLI (direct mode) and the loopback admin API (when a running
// server holds the embedded database): one list, composed here from each area's operations.
import type { Operation } from './operation.js';
import { perDiemRatesOperations } from './per-diem-rates-operations.js';
import { projectionOperations } from './projection-operations.js';
import { ratesOperations } from './rates-operations.js';
import { tenancyOperations } from './tenancy-operations.js';
import { webhooksOperations } from './webhooks-operations.js';
import { auditOperations } from './audit-operations.js';

export type { Args, Operation, OperationContext, Progress } from './operation.js';

export const operations: Record<string, Operation> = {
  ...tenancyOperations,
  ...projectionOperations,
  ...webhooksOperations,
  ...ratesOperations,
  ...perDiemRatesOperations,
  ...auditOperations,
};
