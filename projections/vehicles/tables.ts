// The vehicles read model's table (migration 2026_11_25_0700_organization_resources): the folded
// decider state next to the columns lists filter and sort on. Written only by the projection.
import type { ColumnType } from 'kysely';
import type { VehicleState } from '../../src/domain/vehicles/index.js';

export interface RmVehiclesTable {
  id: string;
  tenant_id: string;
  /** `int`: the stream revision the row has folded up to. */
  revision: number;
  employee_id: string | null;
  is_archived: boolean;
  is_deleted: boolean;
  created_at: Date;
  edited_at: Date;
  /** `jsonb`: the decider state; written as JSON text. */
  doc: ColumnType<VehicleState, string, string>;
}
