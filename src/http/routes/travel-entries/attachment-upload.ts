// Reads a multipart attachment upload completely before the handler runs (a preValidation hook),
// so that every limit is checked before anything is stored, and so that Idempotency-Key (a
// preHandler hashing request.body) sees what was uploaded: the body becomes a summary of the files
// with their SHA-256, independent of the boundary a retry happens to use. The bytes stay here.
// The part loop (readFileParts) is shared with the create with attachments (multipart-create.ts).
import { messagesAt } from '../../../domain/shared/field-errors.js';
import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { DomainError, type FieldErrors } from '../../../domain/errors.js';
import { sha256Hex } from '../../../attachments/blob-store.js';
import { sanitizeFileName } from '../../../attachments/file-name.js';
import {
  MAX_ATTACHMENTS_PER_REQUEST,
  MAX_FILE_BYTES,
  MAX_REQUEST_BYTES,
  MAX_TEXT_FIELDS,
  MAX_TEXT_FIELD_BYTES,
  mib,
} from '../../../attachments/limits.js';
import {
  ALLOWED_CONTENT_TYPES,
  claimMatches,
  normalizeMediaType,
  sniffContentType,
  type AllowedContentType,
} from '../../../attachments/sniff.js';

export interface ReceivedFile {
  fileName: string;
  contentType: AllowedContentType;
  bytes: Buffer;
  sha256: string;
}

/** What Idempotency-Key hashes for an upload (request.body). */
export interface UploadSummary {
  files: { field: string; fileName: string; contentType: string; size: number; sha256: string }[];
}

/** Options of @fastify/multipart in the attachment routes' scope. */
export const MULTIPART_OPTIONS = {
  // A file over the limit is cut off and reported by us (413 naming the file), not by a plugin error.
  throwFileSizeLimit: false,
  limits: {
    fileSize: MAX_FILE_BYTES,
    // One more than allowed, so the extra file is seen and refused by name; later ones are skipped unread.
    files: MAX_ATTACHMENTS_PER_REQUEST + 1,
    fields: MAX_TEXT_FIELDS,
    fieldSize: MAX_TEXT_FIELD_BYTES,
    parts: MAX_ATTACHMENTS_PER_REQUEST + 1 + MAX_TEXT_FIELDS,
  },
};

const received = new WeakMap<FastifyRequest, ReceivedFile[]>();

export function receivedFiles(request: FastifyRequest): ReceivedFile[] {
  const files = received.get(request);
  if (!files) throw new Error('the upload was not read (readUpload must run as preValidation)');
  return files;
}

const TYPES_TEXT = 'PDF, JPEG, PNG, WebP or HEIC/HEIF';
/** How long the rest of a body over the cap is read and dropped after the 413 (see readFileParts). */
const DRAIN_AFTER_REFUSAL_MS = 30_000;
const tooMany = `At most ${MAX_ATTACHMENTS_PER_REQUEST} files per request.`;

const malformed = (detail: string): DomainError =>
  new DomainError('MALFORMED_REQUEST', `The multipart body is malformed: ${detail}`, { body: ['Malformed multipart/form-data.'] });
const fileTooLarge = (errors: FieldErrors): DomainError =>
  new DomainError('PAYLOAD_TOO_LARGE', `A file exceeds the ${mib(MAX_FILE_BYTES)} limit per file.`, errors);
const requestTooLarge = (): DomainError =>
  new DomainError('PAYLOAD_TOO_LARGE', `An upload is at most ${mib(MAX_REQUEST_BYTES)}.`, {
    body: [`At most ${MAX_REQUEST_BYTES} bytes.`],
  });

/**
 * The HTML multipart encoding escapes `"`, CR and LF in file names as %22, %0D and %0A (and
 * busboy leaves them so); anything else, a literal `%41` included, is the name as typed.
 */
export const decodeFormFileName = (raw: string | undefined): string | undefined =>
  raw?.replace(/%(22|0A|0D)/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export async function drain(stream: Readable): Promise<void> {
  for await (const chunk of stream) void chunk;
}

/** The file's bytes; `truncated` when busboy cut it off at the per-file limit. */
export async function readFile(part: MultipartFile): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), truncated: part.file.truncated };
}

/** The type of an acceptable file (sniffed), or why it is refused. */
export function judgeFile(bytes: Buffer, claimed: string): { type: AllowedContentType } | { problem: string } {
  if (bytes.length === 0) return { problem: 'The file is empty.' };
  const type = sniffContentType(bytes);
  if (type === null) return { problem: `The content is not a ${TYPES_TEXT} file (allowed: ${ALLOWED_CONTENT_TYPES.join(', ')}).` };
  if (!claimMatches(claimed, type)) return { problem: `The content is ${type}, not ${normalizeMediaType(claimed)} as declared.` };
  return { type };
}

/** Maps the plugin's and busboy's errors; ours (DomainError) pass through. */
function uploadError(err: unknown, invalid: FieldErrors): DomainError {
  if (err instanceof DomainError) return err;
  const code = (err as { code?: string }).code;
  const refused = (errors: FieldErrors) => new DomainError('VALIDATION_FAILED', 'The request is invalid.', { ...invalid, ...errors });
  if (code === 'FST_FILES_LIMIT') return refused({ files: [tooMany] });
  // Too many parts is mostly too many files (already named); otherwise it is fields, which are refused anyway.
  if (code === 'FST_PARTS_LIMIT')
    return refused(invalid.files ? {} : { body: [`Send at most ${MAX_ATTACHMENTS_PER_REQUEST} files and nothing else.`] });
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PROTO_VIOLATION' || code === 'FST_INVALID_JSON_FIELD_ERROR')
    return refused({ body: ['Send files only.'] });
  return malformed(err instanceof Error ? err.message : String(err));
}

/** What the part loop gathered: the accepted files (with the summary Idempotency-Key hashes) and the problems by field. */
export interface FileParts {
  files: ReceivedFile[];
  summary: UploadSummary;
  /** 400 problems: `files`, `files[i]`, unknown fields (and whatever `takePart` adds). */
  invalid: FieldErrors;
  /** 413 problems: `files[i]` over the per-file limit. */
  oversized: FieldErrors;
  /** File parts seen, accepted or not. */
  fileParts: number;
}

export interface FilePartsOptions {
  /** The request's byte cap: a declared length over it is refused unread, a chunked body is cut off past it. */
  maxBytes: number;
  tooLarge: () => DomainError;
  /** The problem of a text field nobody takes. */
  unknownField: string;
  /** Sees every part first and returns true for those it takes itself (the create's `entry` part). */
  takePart?: (part: Multipart, parts: FileParts) => Promise<boolean>;
  /** Maps a parser error (limits, malformed body); `parts.invalid` holds what was found before it. */
  partError: (err: unknown, parts: FileParts) => DomainError;
}

/**
 * The multipart part loop of the upload and of the create with attachments: the request's byte cap,
 * then every part read to its end (even after a problem, so the answer reaches a client that is still
 * sending), each file judged under the attachment rules (the i-th file part, from 0, is `files[i]`;
 * past the maximum, `files`), and the body read to its end so that a client that vanished mid-upload
 * gets none of its files recorded. The caller turns the problems into its answer.
 */
export async function readFileParts(request: FastifyRequest, reply: FastifyReply, opts: FilePartsOptions): Promise<FileParts> {
  const raw = request.raw;
  if (Number(raw.headers['content-length']) > opts.maxBytes) {
    // Refused unread; closing the connection spares both sides sending the rest.
    reply.header('Connection', 'close');
    throw opts.tooLarge();
  }
  // A chunked body has no length to check up front: count, and past the cap stop parsing. The part
  // loop then fails (the multipart reader cleans up on the request's error) and the client is
  // answered 413. The rest is read and dropped by this listener, so a client still sending reads
  // the answer instead of a reset (closing at once resets the connection under it). The dropping
  // is bounded, by as many bytes again and by time: a client that keeps sending past either is cut off.
  let seen = 0;
  let overCap = false;
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > 2 * opts.maxBytes) raw.destroy();
    if (seen > opts.maxBytes && !overCap) {
      overCap = true;
      const cutOff = setTimeout(() => raw.destroy(), DRAIN_AFTER_REFUSAL_MS);
      cutOff.unref();
      raw.once('end', () => clearTimeout(cutOff));
      raw.unpipe();
      raw.emit('error', opts.tooLarge());
    }
  });

  const parts: FileParts = { files: [], summary: { files: [] }, invalid: {}, oversized: {}, fileParts: 0 };
  const { invalid, oversized } = parts;
  try {
    for await (const part of request.parts()) {
      if (opts.takePart && (await opts.takePart(part, parts))) continue;
      if (part.type === 'field') {
        messagesAt(invalid, part.fieldname).push(opts.unknownField);
        continue;
      }
      const key = `files[${parts.fileParts++}]`;
      if (parts.fileParts > MAX_ATTACHMENTS_PER_REQUEST) {
        invalid.files = [tooMany];
        await drain(part.file);
        continue;
      }
      const { bytes, truncated } = await readFile(part);
      if (truncated) {
        oversized[key] = [`Larger than ${mib(MAX_FILE_BYTES)} (${MAX_FILE_BYTES} bytes).`];
        continue;
      }
      const verdict = judgeFile(bytes, part.mimetype);
      if ('problem' in verdict) {
        messagesAt(invalid, key).push(verdict.problem);
        continue;
      }
      const file = {
        fileName: sanitizeFileName(decodeFormFileName(part.filename), verdict.type),
        contentType: verdict.type,
        bytes,
        sha256: sha256Hex(bytes),
      };
      parts.files.push(file);
      parts.summary.files.push({
        field: part.fieldname,
        fileName: file.fileName,
        contentType: file.contentType,
        size: bytes.length,
        sha256: file.sha256,
      });
    }
    if (!raw.readableEnded) {
      raw.resume();
      await finished(raw);
    }
  } catch (err) {
    if (overCap) throw opts.tooLarge();
    raw.resume(); // discard whatever the parser left unread
    throw opts.partError(err, parts);
  }
  return parts;
}

/**
 * The preValidation hook of the upload route: 415 for anything but multipart/form-data; 400
 * naming `files` for no file or more than the maximum, naming `files[i]` (the i-th file part,
 * from 0) for an empty file, a format outside the allow-list or a claimed type the bytes
 * contradict; 413 naming `files[i]` for a file over the size limit.
 */
export async function readUpload(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!request.isMultipart()) {
    throw new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the files as multipart/form-data (${TYPES_TEXT}, at most ${MAX_ATTACHMENTS_PER_REQUEST}).`,
    );
  }
  const { files, summary, invalid, oversized, fileParts } = await readFileParts(request, reply, {
    maxBytes: MAX_REQUEST_BYTES,
    tooLarge: requestTooLarge,
    unknownField: 'Unknown field: send files only.',
    partError: (err, parts) => uploadError(err, parts.invalid),
  });
  if (Object.keys(oversized).length > 0) throw fileTooLarge(oversized);
  if (fileParts === 0 && !invalid.files) invalid.files = ['At least one file.'];
  if (Object.keys(invalid).length > 0) throw new DomainError('VALIDATION_FAILED', 'The request is invalid.', invalid);
  received.set(request, files);
  request.body = summary;
}
