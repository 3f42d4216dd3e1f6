// The employee decider (stream `employee-{id}`) and its public types.
import type { Decider } from '../decider.js';
import type { EmployeeCommand } from './commands.js';
import { decide } from './decide.js';
import type { EmployeeEvent } from './events.js';
import { evolve, initialState, type EmployeeState } from './state.js';

export const employeeDecider: Decider<EmployeeCommand, EmployeeState, EmployeeEvent> = { initialState, evolve, decide };

/** The stream category (the part of a stream id before the first '-'): the feature's identity in the store. */
export const EMPLOYEE_CATEGORY = 'employee';
export const streamName = (employeeId: string): string => `${EMPLOYEE_CATEGORY}-${employeeId}`;

export type * from './commands.js';
export type * from './events.js';
export type * from './model.js';
export type { EmployeeState } from './state.js';
export { EMPLOYEE_STATUSES, RESIDENCIES } from './model.js';
export { CUSTOM_FIELD_TYPES } from './commands.js';
export { toEmployeeWebhookDto, type EmployeeWebhookDto } from './webhook-dto.js';
