// The limits of an attachment upload (docs/attachments.md). The per-request file count is the
// domain's (the core checks it too); the byte limits are the shell's, which holds the bytes.
import { MAX_ATTACHMENTS_PER_REQUEST } from '../domain/travel-entries/index.js';

export { MAX_ATTACHMENTS_PER_REQUEST };

/** 10 MiB: a phone photo of a receipt or a multi-page scanned PDF fits; a video does not. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Room for part headers and boundaries around the largest allowed set of files. */
export const MAX_REQUEST_BYTES = MAX_ATTACHMENTS_PER_REQUEST * MAX_FILE_BYTES + 1024 * 1024;

/** Form fields other than files are refused; these bound what is read before refusing them. */
export const MAX_TEXT_FIELDS = 10;
export const MAX_TEXT_FIELD_BYTES = 1024;

export const mib = (bytes: number): string => `${bytes / (1024 * 1024)} MiB`;
