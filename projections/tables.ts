// The table the projection runner owns (migrations 2026_11_20_0010_tenancy and
// 2026_11_21_0600_read_model_versions): one checkpoint per projection, next to its rows.
import type { ColumnType, Generated } from 'kysely';

export interface ProjectionCheckpointsTable {
  name: string;
  /** A formatted event-store position; null before the first event (and after a reset). */
  position: string | null;
  /** `bigint`, read as a number (src/infra/database.ts). */
  events_processed: ColumnType<number, number | undefined, number>;
  /**
   * `bigint`, bumped by every batch and reset; announced on NOTIFY read_models
   * (src/http/read-cache.ts). Read through the pool it is a number like every int8.
   */
  version: Generated<number>;
  updated_at: Generated<Date>;
}
