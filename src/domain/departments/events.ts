// Department events (stream `department-{id}`). Type strings never change once stored.
import type { DomainEvent } from '../decider.js';
import type { DepartmentRecord } from './model.js';

export type DepartmentCreated = DomainEvent<'DepartmentCreated', { departmentId: string; record: DepartmentRecord; at: string }>;
/** A full replacement (archiving included): `record` is the whole new record. */
export type DepartmentUpdated = DomainEvent<'DepartmentUpdated', { departmentId: string; record: DepartmentRecord; at: string }>;
export type DepartmentDeleted = DomainEvent<'DepartmentDeleted', { departmentId: string; at: string }>;

export type DepartmentEvent = DepartmentCreated | DepartmentUpdated | DepartmentDeleted;
