// The cost-center decider (stream `costCenter-{id}`) and its public types.
import type { Decider } from '../decider.js';
import type { CostCenterCommand } from './commands.js';
import { decide } from './decide.js';
import type { CostCenterEvent } from './events.js';
import { evolve, initialState, type CostCenterState } from './state.js';

export const costCenterDecider: Decider<CostCenterCommand, CostCenterState, CostCenterEvent> = { initialState, evolve, decide };

/** The stream category: the feature's identity in the store. */
export const COST_CENTER_CATEGORY = 'costCenter';
export const streamName = (costCenterId: string): string => `${COST_CENTER_CATEGORY}-${costCenterId}`;

export type * from './commands.js';
export type * from './events.js';
export type * from './model.js';
export type { CostCenterState } from './state.js';
export { activeCode } from './state.js';
