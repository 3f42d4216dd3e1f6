// Cost-center events (stream `costCenter-{id}`). Type strings never change once stored.
import type { DomainEvent } from '../decider.js';
import type { CostCenterRecord } from './model.js';

export type CostCenterCreated = DomainEvent<'CostCenterCreated', { costCenterId: string; record: CostCenterRecord; at: string }>;
/** A full replacement (archiving included): `record` is the whole new record. */
export type CostCenterUpdated = DomainEvent<'CostCenterUpdated', { costCenterId: string; record: CostCenterRecord; at: string }>;
export type CostCenterDeleted = DomainEvent<'CostCenterDeleted', { costCenterId: string; at: string }>;

export type CostCenterEvent = CostCenterCreated | CostCenterUpdated | CostCenterDeleted;
