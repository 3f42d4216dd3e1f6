// Reads of the payout-batch history, always scoped to one tenant (except the resumer's search
// for unfinished processes, which acts per batch in the batch's own tenant).
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import { upgradeState, type PayoutBatch, type PayoutBatchKind, type PayoutBatchState } from '../../src/domain/payouts/index.js';
import type { RmPayoutBatchesTable } from './tables.js';
import { BY_SYNC_KEY, seekPage, type KeyOrder, type PageRequest } from '../keyset.js';

type Stored = Selectable<RmPayoutBatchesTable>;

export interface BatchRow {
  batch: PayoutBatch;
  status: PayoutBatchKind;
  revision: number;
}

const toRow = (stored: PayoutBatchState, revision: number): BatchRow | undefined => {
  const doc = upgradeState(stored);
  return doc.kind === 'Absent' ? undefined : { batch: doc.batch, status: doc.kind, revision };
};

export async function getPayoutBatch(db: Db, tenantId: string, id: string): Promise<BatchRow | undefined> {
  const r = await sql<Pick<Stored, 'doc' | 'revision'>>`
    select doc, revision from rm_payout_batches where tenant_id = ${tenantId}::uuid and id = ${id}::uuid`.execute(db);
  const row = r.rows[0];
  return row && toRow(row.doc, Number(row.revision));
}

const NEWEST_FIRST: KeyOrder = {
  columns: [
    { column: 'created_at', type: 'timestamptz' },
    { column: 'id', type: 'uuid' },
  ],
  descending: true,
};

/** Newest first (a batch's creation time never changes, so pages are stable under its edits). */
/**
 * Newest first; with `updatedSince` (incremental sync) the batches changed since, settled or
 * deleted, in the projection's write order (sync_seq, id), so a batch changed while a sync pages
 * comes after the rows already paged past, as on every other list.
 */
export async function listPayoutBatches(
  db: Db,
  tenantId: string,
  q: { page: PageRequest; updatedSince?: string | undefined },
): Promise<{ items: BatchRow[]; total?: number; next: string[] | null; last: string[] | null }> {
  const where = [sql`tenant_id = ${tenantId}::uuid`];
  if (q.updatedSince !== undefined) where.push(sql`edited_at >= ${q.updatedSince}::timestamptz`);
  const r = await seekPage<Pick<Stored, 'doc' | 'revision'>>(db, {
    table: 'rm_payout_batches',
    select: sql`doc, revision`,
    where,
    order: q.updatedSince !== undefined ? BY_SYNC_KEY : NEWEST_FIRST,
    page: q.page,
  });
  return { ...r, items: r.rows.flatMap((x) => toRow(x.doc, Number(x.revision)) ?? []) };
}

export interface UnfinishedBatch {
  id: string;
  tenantId: string;
}

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

export interface StrayPayout {
  entryId: string;
  tenantId: string;
  batchId: string;
}

/**
 * Entries paid in a batch that, as settled, does not hold them: a request that paid after a
 * resumer had settled its batch and was killed before its compensation step. Only batches
 * settled (or reversed) within the last day are looked at, since a stray appears right after
 * its batch's settlement; the entries are found by primary key from the batch's request.
 */
export async function listStrayPayouts(db: Db, idleMs: number, limit = 100): Promise<StrayPayout[]> {
  const before = new Date(Date.now() - idleMs).toISOString();
  const since = new Date(Date.now() - 24 * 3_600_000).toISOString();
  const r = await sql<StrayPayout>`
    select e.id::text as "entryId", b.tenant_id::text as "tenantId", b.id::text as "batchId"
    from rm_payout_batches b
    cross join lateral jsonb_array_elements_text(b.doc->'batch'->'entryIds') as requested(entry_id)
    join rm_travel_entries e on e.id = requested.entry_id::uuid and e.tenant_id = b.tenant_id
    where b.status in ('Created', 'Rejected', 'Deleted')
      and b.edited_at < ${before}::timestamptz and b.edited_at > ${since}::timestamptz
      and e.is_paid_out and e.doc->'entry'->>'payoutBatchId' = b.id::text
      and (b.status <> 'Created' or not coalesce((b.doc->'batch'->'takenEntryIds') ? requested.entry_id, false))
    limit ${limit}`.execute(db);
  return r.rows;
}
