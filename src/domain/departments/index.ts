// The department decider (stream `department-{id}`) and its public types.
import type { Decider } from '../decider.js';
import type { DepartmentCommand } from './commands.js';
import { decide } from './decide.js';
import type { DepartmentEvent } from './events.js';
import { evolve, initialState, type DepartmentState } from './state.js';

export const departmentDecider: Decider<DepartmentCommand, DepartmentState, DepartmentEvent> = { initialState, evolve, decide };

/** The stream category: the feature's identity in the store. */
export const DEPARTMENT_CATEGORY = 'department';
export const streamName = (departmentId: string): string => `${DEPARTMENT_CATEGORY}-${departmentId}`;

export type * from './commands.js';
export type * from './events.js';
export type * from './model.js';
export type { DepartmentState } from './state.js';
export { activeCode } from './state.js';
export {
  CYCLE_MESSAGE,
  DEPARTMENT_HIERARCHY_CATEGORY,
  departmentHierarchyDecider,
  hierarchyStream,
  walkAncestors,
  type ClaimDepartmentParent,
  type DepartmentHierarchyEvent,
  type DepartmentHierarchyState,
  type DepartmentRevision,
  type RecordedParent,
} from './hierarchy.js';
