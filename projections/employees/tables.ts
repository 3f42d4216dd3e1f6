// The employees read model's table (migration 2026_11_20_0200_read_models): the folded decider
// state next to the columns lists filter and sort on. Written only by the projection (raw SQL).
import type { ColumnType } from 'kysely';
import type { EmployeeState } from '../../src/domain/employees/index.js';

export interface RmEmployeesTable {
  id: string;
  tenant_id: string;
  /** `int`: the stream revision the row has folded up to. */
  revision: number;
  status: string;
  is_archived: boolean;
  created_at: Date;
  edited_at: Date;
  /** `jsonb`: the decider state; written as JSON text. */
  doc: ColumnType<EmployeeState, string, string>;
}
