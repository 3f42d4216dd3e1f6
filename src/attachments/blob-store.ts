// The attachment blob store in PostgreSQL. Every query names the tenant: an id alone never
// reaches another tenant's file.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../infra/database.js';
import { parsePosition, type EventStore } from '../eventstore/port.js';
import { TRAVEL_ENTRY_CATEGORY } from '../domain/travel-entries/index.js';
import { travelEntriesProjection } from '../../projections/travel-entries/projection.js';

export interface NewBlob {
  id: string;
  contentType: string;
  bytes: Buffer;
}

export interface BlobMeta {
  contentType: string;
  size: number;
  sha256: string;
}

/** Downloads read the bytes in slices of this size, so a download holds one slice in memory. */
export const READ_CHUNK_BYTES = 1024 * 1024;

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const toBuffer = (u8: Uint8Array): Buffer => (Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength));

/** All files of one upload, or none. */
export async function putBlobs(db: Db, tenantId: string, entryId: string, blobs: readonly NewBlob[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // One row per statement: a single multi-row insert would put every file of the request in one message.
    for (const b of blobs) {
      await trx
        .insertInto('attachment_blobs')
        .values({
          id: b.id,
          tenant_id: tenantId,
          entry_id: entryId,
          content_type: b.contentType,
          size: b.bytes.length,
          sha256: sha256Hex(b.bytes),
          bytes: b.bytes,
        })
        .execute();
    }
  });
}

export async function deleteBlobs(db: Db, tenantId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await db
    .deleteFrom('attachment_blobs')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function blobMeta(db: Db, tenantId: string, entryId: string, id: string): Promise<BlobMeta | undefined> {
  const row = await db
    .selectFrom('attachment_blobs')
    .select(['content_type', 'size', 'sha256'])
    .where('tenant_id', '=', tenantId)
    .where('entry_id', '=', entryId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { contentType: row.content_type, size: row.size, sha256: row.sha256 };
}

/**
 * The bytes as a stream of slices (`substring` on EXTERNAL storage fetches only the slice). A blob
 * deleted mid-download ends the stream with an error, which aborts the response: never a short file
 * passed off as complete.
 */
export function blobStream(db: Db, tenantId: string, id: string, size: number): Readable {
  let offset = 0;
  return new Readable({
    async read() {
      if (offset >= size) return void this.push(null);
      try {
        const length = Math.min(READ_CHUNK_BYTES, size - offset);
        const r = await sql<{ chunk: Uint8Array }>`
          select substring(bytes from ${offset + 1}::int for ${length}::int) as chunk
          from attachment_blobs where tenant_id = ${tenantId}::uuid and id = ${id}::uuid`.execute(db);
        const chunk = r.rows[0]?.chunk;
        if (!chunk || chunk.length !== length) throw new Error(`attachment blob ${id} vanished or shrank during a download`);
        offset += length;
        this.push(toBuffer(chunk));
      } catch (err) {
        this.destroy(err as Error);
      }
    },
  });
}

/**
 * Deletes blobs no entry lists any more: an upload whose command failed in a way that left its
 * outcome unknown, or a removal whose blob delete failed after the event was recorded. The entry's
 * attachments come from the travel-entries read model; `graceMinutes` keeps in-flight uploads
 * (stored, command not yet projected) out of reach.
 *
 * The read model is trusted only while it is complete: the sweep holds a share lock on the
 * projection's checkpoint row (a rebuild, which empties the table, takes that row for update and so
 * waits) and does nothing while the projection has events left to apply.
 */
export async function sweepOrphanBlobs(db: Db, store: EventStore, graceMinutes = 60): Promise<number> {
  const checkpoint = async (q: Db | Transaction<Database>, lock: boolean) =>
    (
      await sql<{ position: string | null }>`
    select position from projection_checkpoints where name = ${travelEntriesProjection.name} ${lock ? sql`for share` : sql``}`.execute(q)
    ).rows[0]?.position ?? null;
  // Checked outside the transaction (the embedded database has one connection), then confirmed
  // unchanged under the lock.
  const seen = await checkpoint(db, false);
  if (!seen || (await store.countAfter(parsePosition(seen), { categories: [TRAVEL_ENTRY_CATEGORY] }, 1)) > 0) return 0;
  return db.transaction().execute(async (trx) => {
    if ((await checkpoint(trx, true)) !== seen) return 0;
    const r = await sql`
      delete from attachment_blobs b
      where b.created_at < now() - make_interval(mins => ${graceMinutes}::int)
        and not exists (
          select 1 from rm_travel_entries e
          where e.id = b.entry_id and e.tenant_id = b.tenant_id
            and e.doc -> 'entry' -> 'attachments' @> jsonb_build_array(jsonb_build_object('id', b.id::text)))`.execute(trx);
    return Number(r.numAffectedRows ?? 0);
  });
}
