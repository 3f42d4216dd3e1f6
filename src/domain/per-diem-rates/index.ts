// The foreign per-diem rate-table decider (stream `perDiemRateTable-{law}`, one per law) and its
// public types. The tables are the platform's: commands run with PLATFORM_TENANT_ID.
import type { Decider } from '../decider.js';
import type { PerDiemRateTableCommand } from './commands.js';
import { decide } from './decide.js';
import type { PerDiemRateTableEvent } from './events.js';
import { evolve, initialState, type PerDiemRateTableState } from './state.js';

export const perDiemRateTableDecider: Decider<PerDiemRateTableCommand, PerDiemRateTableState, PerDiemRateTableEvent> = {
  initialState,
  evolve,
  decide,
};

export { PER_DIEM_RATE_TABLE_CATEGORY, PLATFORM_TENANT_ID, rateTableStream } from './events.js';
export { MAX_LINES_REPORTED } from './decide.js';
export type * from './commands.js';
export type * from './events.js';
export type { ImportedVersion, PerDiemRateTableState } from './state.js';
