// Cost-centers read model (rm_cost_centers), folded with the domain's own evolve. A deleted cost
// center keeps its row (is_deleted) so a rebuild gives the same rows; reads leave it out.
import { COST_CENTER_CATEGORY, costCenterDecider, type CostCenterState } from '../../src/domain/cost-centers/index.js';
import type { CostCenterEvent } from '../../src/domain/cost-centers/events.js';
import { documentProjection } from '../document-projection.js';

export const costCentersProjection = documentProjection<CostCenterState>({
  name: 'cost-centers',
  category: COST_CENTER_CATEGORY,
  table: 'rm_cost_centers',
  initialState: costCenterDecider.initialState,
  evolve: (s, e) => costCenterDecider.evolve(s, e as CostCenterEvent),
  columns: (s) =>
    s.kind === 'Absent'
      ? undefined
      : {
          code: s.costCenter.code,
          is_archived: s.costCenter.isArchived,
          is_deleted: s.kind === 'Deleted',
          created_at: s.costCenter.createdAt,
          edited_at: s.costCenter.editedAt,
        },
});
