// Reads of the payout-batch history, always scoped to one tenant.
import { sql } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { PayoutBatch, PayoutBatchState } from '../../src/domain/payouts/index.js';

export interface BatchRow { batch: PayoutBatch; status: 'Created' | 'Deleted'; revision: number }

const toRow = (doc: PayoutBatchState, revision: number): BatchRow | undefined =>
  doc.kind === 'Absent' ? undefined : { batch: doc.batch, status: doc.kind, revision };

export async function getPayoutBatch(db: Db, tenantId: string, id: string): Promise<BatchRow | undefined> {
  const r = await sql<{ doc: PayoutBatchState; revision: number }>`
    select doc, revision from rm_payout_batches where tenant_id = ${tenantId}::uuid and id = ${id}::uuid`.execute(db);
  const row = r.rows[0];
  return row && toRow(row.doc, Number(row.revision));
}

/** Newest first. */
export async function listPayoutBatches(db: Db, tenantId: string, q: { page: number; pageSize: number }): Promise<{ items: BatchRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    sql<{ doc: PayoutBatchState; revision: number }>`
      select doc, revision from rm_payout_batches where tenant_id = ${tenantId}::uuid
      order by created_at desc, id desc limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from rm_payout_batches where tenant_id = ${tenantId}::uuid`.execute(db),
  ]);
  return { items: rows.rows.flatMap((r) => toRow(r.doc, Number(r.revision)) ?? []), total: Number(count.rows[0]?.n ?? 0) };
}
