// Departments read model (rm_departments), folded with the domain's own evolve. A deleted department
// keeps its row (is_deleted) so a rebuild gives the same rows; reads leave it out.
import { DEPARTMENT_CATEGORY, departmentDecider, type DepartmentState } from '../../src/domain/departments/index.js';
import type { DepartmentEvent } from '../../src/domain/departments/events.js';
import { documentProjection } from '../document-projection.js';

export const departmentsProjection = documentProjection<DepartmentState>({
  name: 'departments',
  category: DEPARTMENT_CATEGORY,
  table: 'rm_departments',
  initialState: departmentDecider.initialState,
  evolve: (s, e) => departmentDecider.evolve(s, e as DepartmentEvent),
  columns: (s) =>
    s.kind === 'Absent'
      ? undefined
      : {
          parent_id: s.department.parentId,
          default_cost_center_id: s.department.defaultCostCenterId,
          is_archived: s.department.isArchived,
          is_deleted: s.kind === 'Deleted',
          created_at: s.department.createdAt,
          edited_at: s.department.editedAt,
        },
});
