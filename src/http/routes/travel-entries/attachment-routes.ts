// Attachments of a travel entry: upload (multipart, at most 5 files), download and remove. The
// entry's events carry the metadata; the bytes live in attachment_blobs under the same id
// (docs/attachments.md). Each upload or removal is one audit record (and an entry.updated webhook).
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { DomainError, notFound } from '../../../domain/errors.js';
import type { AddAttachments } from '../../../domain/travel-entries/index.js';
import { blobMeta, blobStream, deleteBlobs, putBlobs } from '../../../attachments/blob-store.js';
import { contentDisposition } from '../../../attachments/file-name.js';
import { MAX_ATTACHMENTS_PER_REQUEST, MAX_FILE_BYTES, mib } from '../../../attachments/limits.js';
import { ALLOWED_CONTENT_TYPES } from '../../../attachments/sniff.js';
import type { Db } from '../../../infra/database.js';
import { getTravelEntry } from '../../../../projections/travel-entries/queries.js';
import { principalOf } from '../../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, Uuid } from '../../schemas/common.js';
import { validatorCompiler } from '../../validation.js';
import { MULTIPART_OPTIONS, readUpload, receivedFiles } from './attachment-upload.js';
import { runEntryCommand } from './entry-command.js';
import { ref } from '../../schemas/ref.js';
import { TravelEntry } from './schemas.js';

const tags = ['Travel entries'];
const entryRef = ref(TravelEntry);
const EntryParams = Type.Object({ id: Uuid }, { additionalProperties: false });
const AttachmentParams = Type.Object({ id: Uuid, attachmentId: Uuid }, { additionalProperties: false });

const UploadForm = Type.Object({
  files: Type.Array(Type.String({ format: 'binary' }), {
    minItems: 1,
    maxItems: MAX_ATTACHMENTS_PER_REQUEST,
    description:
      `1 to ${MAX_ATTACHMENTS_PER_REQUEST} file parts (any field name), each at most ${mib(MAX_FILE_BYTES)}: ` +
      `${ALLOWED_CONTENT_TYPES.join(', ')}, recognised by content. No other form fields.`,
  }),
});

/** The download body: documented as binary, sent as a stream (never serialized). */
const FileBytes = Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'The file, as uploaded.' });

/** A refused upload leaves no blobs; one whose outcome is unknown leaves them to sweepOrphanBlobs. */
async function forgetUpload(db: Db, request: FastifyRequest, err: unknown, tenantId: string, ids: string[]): Promise<void> {
  // A DomainError is a verdict reached before the append (or a lost append race): nothing was recorded.
  if (err instanceof DomainError) {
    await deleteBlobs(db, tenantId, ids).catch((e: unknown) =>
      request.log.error({ err: e, attachmentIds: ids }, 'could not delete the blobs of a refused upload'),
    );
    return;
  }
  request.log.warn({ err, attachmentIds: ids }, 'attachment upload failed with an unknown outcome; its blobs are left to the orphan sweep');
}

export const travelEntryAttachmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  // Registered in this plugin only: the multipart parser and its request decorators stay out of
  // every other route, whose JSON handling (and 415 for anything else) is unchanged.
  await app.register(multipart, MULTIPART_OPTIONS);
  // Any other body reaches readUpload unread, which answers 415 naming multipart/form-data
  // (the default answer would tell the client to send JSON).
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.post(
    '/travel-entries/:id/attachments',
    {
      config: { scope: 'write' },
      preValidation: readUpload,
      // The body schema documents the form in OpenAPI; readUpload has already read and checked the parts.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route)),
      schema: {
        tags,
        summary: `Upload attachments (multipart/form-data, at most ${MAX_ATTACHMENTS_PER_REQUEST} files, ${mib(MAX_FILE_BYTES)} each)`,
        consumes: ['multipart/form-data'],
        params: EntryParams,
        body: UploadForm,
        response: {
          201: entryRef,
          ...errorResponses(...EDIT_ERRORS, 'ENTRY_LOCKED', 'MALFORMED_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'),
        },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const entryId = request.params.id;
      const blobs = receivedFiles(request).map((f) => ({ ...f, id: randomUUID() }));
      const command: AddAttachments = {
        type: 'AddAttachments',
        data: {
          entryId,
          attachments: blobs.map((b) => ({ id: b.id, fileName: b.fileName, contentType: b.contentType, size: b.bytes.length })),
        },
      };
      let stored = false;
      try {
        const entry = await runEntryCommand(app, request, reply, entryId, async () => command, {
          // After the decision: an entry that refuses (e.g. locked) costs no blob writes. A retry
          // after a lost append race finds the blobs already stored.
          beforeAppend: async () => {
            if (!stored) {
              await putBlobs(db, tenantId, entryId, blobs);
              stored = true;
            }
          },
        });
        reply.code(201);
        return entry;
      } catch (err) {
        if (stored)
          await forgetUpload(
            db,
            request,
            err,
            tenantId,
            blobs.map((b) => b.id),
          );
        throw err;
      }
    },
  );

  app.get(
    '/travel-entries/:id/attachments/:attachmentId/content',
    {
      config: { scope: 'read', personalData: { resourceType: 'attachment', idParam: 'attachmentId' } },
      schema: {
        tags,
        summary: 'Download an attachment (the stored bytes, with their sniffed content type)',
        params: AttachmentParams,
        produces: [...ALLOWED_CONTENT_TYPES],
        response: { 200: FileBytes, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      // The entry's current attachments decide what exists: a blob whose attachment was removed is never served.
      const row = await getTravelEntry(db, tenantId, request.params.id);
      if (!row) throw notFound('Travel entry');
      const attachment = row.entry.attachments.find((a) => a.id === request.params.attachmentId);
      if (!attachment) throw notFound('Attachment');
      const meta = await blobMeta(db, tenantId, row.entry.id, attachment.id);
      if (!meta) {
        request.log.error({ entryId: row.entry.id, attachmentId: attachment.id }, 'an attachment of an entry has no stored bytes');
        throw notFound('Attachment content');
      }
      reply
        .header('Content-Type', meta.contentType)
        .header('Content-Length', String(meta.size))
        .header('Content-Disposition', contentDisposition(attachment.fileName))
        // The type was sniffed on upload; browsers must not guess another one, nor keep a copy of personal data.
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .header('Repr-Digest', `sha-256=:${Buffer.from(meta.sha256, 'hex').toString('base64')}:`);
      return reply.send(blobStream(db, tenantId, attachment.id, meta.size));
    },
  );

  app.delete(
    '/travel-entries/:id/attachments/:attachmentId',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Remove an attachment',
        params: AttachmentParams,
        response: {
          200: entryRef,
          ...errorResponses(...EDIT_ERRORS, 'ENTRY_LOCKED'),
        },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const { id: entryId, attachmentId } = request.params;
      const entry = await runEntryCommand(app, request, reply, entryId, async () => ({
        type: 'RemoveAttachment',
        data: { entryId, attachmentId },
      }));
      // Only after the event: a failed delete leaves an orphan for the sweep, never an attachment without bytes.
      await deleteBlobs(db, tenantId, [attachmentId]).catch((err: unknown) =>
        request.log.error({ err, entryId, attachmentId }, 'could not delete the blob of a removed attachment'),
      );
      return entry;
    },
  );
};
