// The blob store of travel-entry attachments (docs/attachments.md). The entry's events carry only
// the metadata ({ id, fileName, contentType, size }); the bytes live here under the same id.
//
// `bytes` uses EXTERNAL storage (out of line, uncompressed): the accepted formats (PDF, JPEG, PNG,
// WebP, HEIC) are already compressed, and uncompressed TOAST lets `substring(bytes ...)` fetch
// only the chunks a download reads instead of detoasting the whole file for every chunk.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table attachment_blobs (
      id uuid primary key,
      tenant_id uuid not null,
      entry_id uuid not null,
      content_type text not null,
      size int not null check (size > 0),
      sha256 text not null,
      bytes bytea not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`alter table attachment_blobs alter column bytes set storage external`.execute(db);
  await sql`create index attachment_blobs_entry on attachment_blobs (tenant_id, entry_id)`.execute(db);
  // The orphan sweep looks at old blobs only (in-flight uploads are younger than its grace period).
  await sql`create index attachment_blobs_created on attachment_blobs (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists attachment_blobs`.execute(db);
}
