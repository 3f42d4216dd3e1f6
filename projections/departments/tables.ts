// The departments read model's table (migration 2026_11_25_0700_organization_resources): the
// folded decider state next to the columns lists filter and sort on. Written only by the projection.
import type { ColumnType } from 'kysely';
import type { DepartmentState } from '../../src/domain/departments/index.js';

export interface RmDepartmentsTable {
  id: string;
  tenant_id: string;
  /** `int`: the stream revision the row has folded up to. */
  revision: number;
  parent_id: string | null;
  default_cost_center_id: string | null;
  is_archived: boolean;
  is_deleted: boolean;
  created_at: Date;
  edited_at: Date;
  /** `jsonb`: the decider state; written as JSON text. */
  doc: ColumnType<DepartmentState, string, string>;
}
