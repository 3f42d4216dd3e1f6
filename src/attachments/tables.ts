// Row type of attachment_blobs (migration 2026_11_20_0300_attachments), listed in src/infra/schema.ts.
import type { Generated } from 'kysely';

export interface AttachmentBlobsTable {
  /** The attachment id recorded in the entry's TravelEntryAttachmentsAdded event. */
  id: string;
  tenant_id: string;
  entry_id: string;
  /** The sniffed type, never the client's claim. */
  content_type: string;
  size: number;
  /** Lowercase hex SHA-256 of `bytes`. */
  sha256: string;
  /** PGlite answers bytea as a Uint8Array, node-postgres as a Buffer. */
  bytes: Uint8Array;
  created_at: Generated<Date>;
}
