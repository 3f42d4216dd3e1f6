// Reads of the payout-batch history, always scoped to one tenant (except the resumer's search
// for unfinished processes, which acts per batch in the batch's own tenant).
import { sql } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import { upgradeState, type PayoutBatch, type PayoutBatchKind, type PayoutBatchState } from '../../src/domain/payouts/index.js';

export interface BatchRow { batch: PayoutBatch; status: PayoutBatchKind; revision: number }

const toRow = (stored: PayoutBatchState, revision: number): BatchRow | undefined => {
  const doc = upgradeState(stored);
  return doc.kind === 'Absent' ? undefined : { batch: doc.batch, status: doc.kind, revision };
};

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

export interface UnfinishedBatch { id: string; tenantId: string }

/**
 * Batches whose process has not ended and that nobody touched for `idleMs`: not settled, a
 * reversal not completed, or a row folded by an earlier version (no `settledAt` in its document:
 * a legacy stream, which is settled like any request).
 */
export async function listUnfinishedPayoutBatches(db: Db, idleMs: number, limit = 100): Promise<UnfinishedBatch[]> {
  const before = new Date(Date.now() - idleMs).toISOString();
  const r = await sql<UnfinishedBatch>`
    select id::text as id, tenant_id::text as "tenantId" from rm_payout_batches
    where (status in ('Processing', 'Reversing') or not (doc->'batch' ? 'settledAt'))
      and edited_at < ${before}::timestamptz
    order by edited_at limit ${limit}`.execute(db);
  return r.rows;
}
