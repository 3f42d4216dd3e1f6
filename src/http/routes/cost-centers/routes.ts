// Cost centers: create, replace (archiving included), delete, list and read (crud-routes.ts). The
// code is unique among the company's active cost centers, held by a claim stream
// (src/application/code-claims); a delete counts what still names the cost center.
import { activeCode, costCenterDecider, streamName, type CostCenterState } from '../../../domain/cost-centers/index.js';
import { UniqueCodes } from '../../../application/code-claims/unique-codes.js';
import { costCenterReferences, getCostCenter, listCostCenters } from '../../../../projections/cost-centers/queries.js';
import { travelEntriesProjection } from '../../../../projections/travel-entries/projection.js';
import { costCentersProjection } from '../../../../projections/cost-centers/projection.js';
import { crudRoutes } from '../crud-routes.js';
import { CostCenter, CostCenterBody, CostCenterPage, OrganizationListQuery } from './schemas.js';

const existing = (state: CostCenterState) => {
  if (state.kind !== 'Existing') throw new Error('a cost-center command left no cost center');
  return state.costCenter;
};

export const costCenterRoutes = crudRoutes({
  path: '/cost-centers',
  tags: ['Cost centers'],
  noun: 'Cost center',
  summaries: {
    create: 'Create a cost center',
    replace: 'Replace a cost center (isArchived archives or restores it)',
    delete: 'Delete a cost center no entry or department names (else 409 RESOURCE_IN_USE: archive it instead)',
    list: 'List cost centers',
    read: 'Read a cost center',
  },
  schemas: { body: CostCenterBody, item: CostCenter, page: CostCenterPage, listQuery: OrganizationListQuery },
  projection: costCentersProjection.name,
  // A delete counts references once these have caught up (crud-routes.ts).
  referencedIn: ['travel-entries', 'departments'],
  // An entry shows the names, kept by the travel-entries projection (reference-changes.ts).
  alsoShownBy: [travelEntriesProjection.name],
  decider: costCenterDecider,
  streamName,
  itemOf: existing,
  writeErrors: ['CODE_TAKEN'],
  guards: (app) =>
    new UniqueCodes(app.deps.store, { kind: 'costCenter', field: 'code', activeCode, streamName, decider: costCenterDecider }),
  commands: (db) => ({
    create: async (costCenterId, fields) => ({ type: 'CreateCostCenter' as const, data: { costCenterId, fields } }),
    replace: async (costCenterId, fields) => ({ type: 'ReplaceCostCenter' as const, data: { costCenterId, fields } }),
    delete: async (costCenterId, ctx) => ({
      type: 'DeleteCostCenter' as const,
      data: { costCenterId, references: await costCenterReferences(db, ctx.tenantId, costCenterId) },
    }),
  }),
  reads: {
    get: async (db, tenantId, id) => {
      const row = await getCostCenter(db, tenantId, id);
      return row && { item: row.costCenter, revision: row.revision };
    },
    list: listCostCenters,
  },
});
