// The departments read model's table (migration 2026_11_25_0700_organization_resources): the
// folded decider state next to the columns lists filter and sort on. Written only by the projection.
import type { ColumnType, Generated } from 'kysely';
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
  /**
   * `bigint` from the sequence rm_sync_seq, new on every write of the row by the projection (in feed
   * order): incremental sync pages on (sync_seq, id) (migration 2026_11_25_0820_list_cursors).
   */
  sync_seq: Generated<number>;
  /** `jsonb`: the decider state; written as JSON text. */
  doc: ColumnType<DepartmentState, string, string>;
}
