// Every read-model projection the projector runs (and the CLI can rebuild).
import type { Projection } from './projection.js';
import { employeesProjection } from './employees/projection.js';
import { travelEntriesProjection } from './travel-entries/projection.js';
import { payoutBatchesProjection } from './payout-batches/projection.js';

export function allProjections(): Projection[] {
  return [employeesProjection, travelEntriesProjection, payoutBatchesProjection];
}
