// Employee events (stream `employee-{id}`). Type strings never change once stored; a new shape
// gets a new type or an upcaster, never an edit here.
import type { DomainEvent } from '../decider.js';
import type { EmployeeProfile } from './model.js';

export type EmployeeRegistered = DomainEvent<'EmployeeRegistered', { employeeId: string; profile: EmployeeProfile; at: string }>;
/** A full replacement: `profile` is the whole new profile, not a patch. */
export type EmployeeUpdated = DomainEvent<'EmployeeUpdated', { employeeId: string; profile: EmployeeProfile; at: string }>;
export type EmployeeArchived = DomainEvent<'EmployeeArchived', { employeeId: string; at: string }>;

export type EmployeeEvent = EmployeeRegistered | EmployeeUpdated | EmployeeArchived;
