// POST /api/v1/travel-entries: the atomic create, as JSON (the entry with its expenses, per diems and
// allocations) or as multipart/form-data (the same entry in a JSON part `entry` plus 1 to 5 files,
// docs/attachments.md "Create with attachments"). All or nothing: the form is read and judged whole
// before anything runs; the files are stored in beforeAppend, after the decision passed, and the
// entry's TravelEntryCreated lists them. A refused create deletes the stored files; a create whose
// outcome is unknown (a crash between the blobs and the append) leaves them to sweepOrphanBlobs,
// which deletes blobs no entry lists. One event, so one entry.created webhook.
//
// The write comes from TravelEntryWrites.create; this route only adds the attachments to its
// command and the blob writes to its beforeAppend.
import { isUtf8 } from 'node:buffer';
import { messagesAt } from '../../../domain/shared/field-errors.js';
import { randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { EntryWrite } from '../../../application/travel-entries/writes.js';
import { DomainError, type FieldErrors } from '../../../domain/errors.js';
import type { AttachmentFields } from '../../../domain/travel-entries/index.js';
import { deleteBlobs, putBlobs } from '../../../attachments/blob-store.js';
import { MAX_ATTACHMENTS_PER_REQUEST, MAX_FILE_BYTES, MAX_REQUEST_BYTES, MAX_TEXT_FIELDS, mib } from '../../../attachments/limits.js';
import { ALLOWED_CONTENT_TYPES } from '../../../attachments/sniff.js';
import { scanJsonText } from '../../../domain/shared/json-text-scan.js';
import { commandContext } from '../../command-support.js';
import { repeatedNameProblem, tooDeepProblem } from '../../json-body.js';
import { principalOf } from '../../plugins/auth.js';
import { validationErrors } from '../../problem.js';
import { errorResponses } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { validatorCompiler } from '../../validation.js';
import { readFile, readFileParts, type ReceivedFile } from './attachment-upload.js';
import { runEntryWrite } from './entry-command.js';
import { ENTRY_CREATE_ERRORS, TravelEntry, TravelEntryInput } from './schemas.js';

const tags = ['Travel entries'];
const MULTIPART = 'multipart/form-data';
/** The `entry` part may be as large as a JSON create body. */
const MAX_ENTRY_PART_BYTES = 1024 * 1024;
const MAX_CREATE_REQUEST_BYTES = MAX_REQUEST_BYTES + MAX_ENTRY_PART_BYTES;

const CreateForm = Type.Object(
  {
    entry: {
      ...ref(TravelEntryInput),
      description: 'The entry exactly as the JSON create takes it, as a JSON text part (or a file part of type application/json).',
    },
    files: Type.Array(Type.String({ format: 'binary' }), {
      minItems: 1,
      maxItems: MAX_ATTACHMENTS_PER_REQUEST,
      description:
        `1 to ${MAX_ATTACHMENTS_PER_REQUEST} file parts (any field name but entry), each at most ${mib(MAX_FILE_BYTES)}: ` +
        `${ALLOWED_CONTENT_TYPES.join(', ')}, recognised by content. No other form fields.`,
    }),
  },
  { required: ['entry', 'files'] },
);

/** Options of @fastify/multipart in this route's scope: the attachment limits plus the entry part. */
const MULTIPART_CREATE_OPTIONS = {
  throwFileSizeLimit: false,
  limits: {
    fileSize: MAX_FILE_BYTES,
    files: MAX_ATTACHMENTS_PER_REQUEST + 2, // the files, an entry sent as a file part, and one more to name the excess
    fields: MAX_TEXT_FIELDS,
    fieldSize: MAX_ENTRY_PART_BYTES,
    parts: MAX_ATTACHMENTS_PER_REQUEST + 2 + MAX_TEXT_FIELDS,
  },
};

interface CreateForm {
  entry: Static<typeof TravelEntryInput>;
  files: ReceivedFile[];
}

const forms = new WeakMap<FastifyRequest, CreateForm>();

type AjvIssue = Parameters<typeof validationErrors>[1][number];

const refused = (errors: FieldErrors): DomainError => new DomainError('VALIDATION_FAILED', 'The request is invalid.', errors);
const tooLarge = (message: string, errors: FieldErrors): DomainError => new DomainError('PAYLOAD_TOO_LARGE', message, errors);

let entryValidator: ReturnType<FastifySchemaCompiler<unknown>> | undefined;
/** The JSON create's own validator (compiled once the shared schemas are registered); errors keyed under `prefix`. */
function entryIssues(entry: unknown, prefix: 'entry' | 'body'): FieldErrors {
  entryValidator ??= validatorCompiler({ schema: ref(TravelEntryInput), httpPart: 'body', method: 'POST', url: '/travel-entries' });
  const validate = entryValidator as ((data: unknown) => boolean) & { errors?: AjvIssue[] };
  if (validate(entry)) return {};
  const issues = validationErrors('body', validate.errors ?? []);
  return prefix === 'body' ? issues : underEntry(issues);
}

/** A JSON body's field errors as the entry part's: `body` becomes `entry`, `purpose` `entry.purpose`. */
function underEntry(issues: FieldErrors): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(issues)) errors[field === 'body' ? 'entry' : `entry.${field}`] = messages;
  return errors;
}

/**
 * The entry part as JSON, read as a JSON body is (app.ts): its nesting and repeated names from the
 * text, and a byte-order mark skipped (Fastify's parser skips it in a body; a review, session 27).
 */
function parseEntry(part: string): { entry: unknown } | { errors: FieldErrors } {
  const text = part.charCodeAt(0) === 0xfeff ? part.slice(1) : part;
  const scan = scanJsonText(text);
  const tooDeep = tooDeepProblem(scan);
  if (tooDeep) return { errors: underEntry(tooDeep.errors ?? {}) };
  let entry: unknown;
  try {
    entry = JSON.parse(text) as unknown;
  } catch {
    return { errors: { entry: ['Must be the entry as JSON (the body of the JSON create).'] } };
  }
  const repeated = repeatedNameProblem(scan);
  return repeated ? { errors: underEntry(repeated.errors ?? {}) } : { entry };
}

/**
 * The preValidation hook: a JSON create passes through; a multipart one is read whole and judged
 * (the entry part against the JSON create's schema, keyed `entry.<field>`; the files under the
 * attachment rules, keyed `files[i]`), and every problem is answered in one 400 (413 for a file
 * over the size limit). The body becomes `{ entry, files: summary }`, which Idempotency-Key hashes.
 */
export async function readCreateForm(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!request.isMultipart()) {
    // Fastify validates a body by its media type; one without (no body at all) gets the JSON create's checks here.
    if (request.mediaType !== 'application/json') {
      const errors = entryIssues(request.body, 'body');
      if (Object.keys(errors).length > 0) throw refused(errors);
    }
    return;
  }
  let entryText: string | undefined;
  let entryParts = 0;
  const { files, summary, invalid, oversized, fileParts } = await readFileParts(request, reply, {
    maxBytes: MAX_CREATE_REQUEST_BYTES,
    tooLarge: () =>
      tooLarge(`A create with attachments is at most ${mib(MAX_CREATE_REQUEST_BYTES)}.`, {
        body: [`At most ${MAX_CREATE_REQUEST_BYTES} bytes.`],
      }),
    unknownField: 'Unknown field: send the entry part and files only.',
    // The `entry` part, as a text field or a file part of type application/json.
    takePart: async (part, { invalid }) => {
      if (part.fieldname !== 'entry') return false;
      entryParts++;
      const tooBig = () => (invalid.entry ??= []).push(`At most ${MAX_ENTRY_PART_BYTES} bytes.`);
      // Bytes that are not UTF-8 are refused as in a JSON body (json-body.ts). A text field arrives
      // decoded, with U+FFFD where a byte was bad, so that character is refused there.
      const notUtf8 = () => messagesAt(invalid, 'entry').push('Not valid UTF-8.');
      if (part.type === 'field') {
        // A field sent with Content-Type application/json arrives parsed by @fastify/multipart (as
        // Spring's MultipartBodyBuilder, .NET's StringContent and Python's requests send it): its
        // text again, so both kinds of field take the same path.
        const text = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        if (part.valueTruncated) tooBig();
        else if (text.includes('\uFFFD')) notUtf8();
        else entryText = text;
      } else {
        const { bytes, truncated } = await readFile(part);
        if (truncated || bytes.length > MAX_ENTRY_PART_BYTES) tooBig();
        else if (!isUtf8(bytes)) notUtf8();
        else entryText = bytes.toString('utf8');
      }
      return true;
    },
    partError: (err, { invalid }) => {
      if (err instanceof DomainError) return err;
      const code = (err as { code?: string }).code;
      // A text field typed application/json that is not JSON (or was cut at the size limit): only
      // the entry part may be one, so it is the entry that is refused.
      if (code === 'FST_INVALID_JSON_FIELD_ERROR') {
        return refused({
          ...invalid,
          entry: [`Must be the entry as JSON (the body of the JSON create), at most ${MAX_ENTRY_PART_BYTES} bytes.`],
        });
      }
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
        return refused({ ...invalid, body: [`Send one entry part and at most ${MAX_ATTACHMENTS_PER_REQUEST} files, nothing else.`] });
      }
      return new DomainError('MALFORMED_REQUEST', `The multipart body is malformed: ${err instanceof Error ? err.message : String(err)}`, {
        body: ['Malformed multipart/form-data.'],
      });
    },
  });
  const add = (key: string, message: string) => messagesAt(invalid, key).push(message);
  if (Object.keys(oversized).length > 0) throw tooLarge(`A file exceeds the ${mib(MAX_FILE_BYTES)} limit per file.`, oversized);
  if (fileParts === 0 && !invalid.files) invalid.files = ['At least one file (send a JSON body to create without attachments).'];
  let entry: unknown;
  if (entryParts > 1) add('entry', 'Send the entry once.');
  else if (entryText === undefined && !invalid.entry) add('entry', 'Required.');
  else if (!invalid.entry && entryText !== undefined) {
    const parsed = parseEntry(entryText);
    if ('errors' in parsed) Object.assign(invalid, parsed.errors);
    else {
      entry = parsed.entry;
      Object.assign(invalid, entryIssues(entry, 'entry'));
    }
  }
  if (Object.keys(invalid).length > 0) throw refused(invalid);
  forms.set(request, { entry: entry as Static<typeof TravelEntryInput>, files });
  request.body = { entry, files: summary };
}

/** The create's write with the files added: in its command, and stored in its beforeAppend before the entry number is reserved. */
function withAttachments(
  app: { deps: { db: Parameters<typeof putBlobs>[0] } },
  tenantId: string,
  write: EntryWrite,
  files: ReceivedFile[],
) {
  const blobs = files.map((f) => ({ ...f, id: randomUUID() }));
  const attachments: AttachmentFields[] = blobs.map((b) => ({
    id: b.id,
    fileName: b.fileName,
    contentType: b.contentType,
    size: b.bytes.length,
  }));
  const state = { stored: false };
  const build = write.command;
  const wrapped: EntryWrite = {
    ...write,
    command: async (s, revision) => {
      const command = typeof build === 'function' ? await build(s, revision) : build;
      return command.type === 'CreateTravelEntry' ? { ...command, data: { ...command.data, attachments } } : command;
    },
    // After the decision: a refused entry or file costs no blob writes. A retry after a lost race finds them stored.
    beforeAppend: async (events, s) => {
      if (!state.stored) {
        await putBlobs(app.deps.db, tenantId, write.entryId, blobs);
        state.stored = true;
      }
      return write.beforeAppend ? write.beforeAppend(events, s) : undefined;
    },
  };
  return { write: wrapped, state, ids: blobs.map((b) => b.id) };
}

export const travelEntryCreateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, travelEntries } = app.deps;
  // In this plugin only: every other route keeps answering 415 to a multipart body.
  await app.register(multipart, MULTIPART_CREATE_OPTIONS);

  app.post(
    '/travel-entries',
    {
      config: { scope: 'write' },
      preValidation: readCreateForm,
      // The form was judged whole by readCreateForm (the entry part with the JSON create's schema).
      validatorCompiler: (route) => (route.httpPart === 'body' && route.contentType === MULTIPART ? () => true : validatorCompiler(route)),
      schema: {
        tags,
        summary: 'Create a travel entry with its expenses, per diems, cost-center allocations and (multipart) attachments (atomic)',
        description:
          'As `application/json`: the entry (TravelEntryInput). As `multipart/form-data`: the same entry as a JSON part named `entry` ' +
          `plus 1 to ${MAX_ATTACHMENTS_PER_REQUEST} file parts under the attachment rules (size, sniffed type, file names). ` +
          'All or nothing: a refused entry or file stores neither (400 keyed `entry.<field>` or `files[i]`, 413 for a file over ' +
          `${mib(MAX_FILE_BYTES)}). One entry.created webhook.`,
        body: { content: { 'application/json': { schema: ref(TravelEntryInput) }, [MULTIPART]: { schema: CreateForm } } },
        response: {
          201: ref(TravelEntry),
          ...errorResponses(...ENTRY_CREATE_ERRORS, 'MALFORMED_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const form = forms.get(request);
      const body = form ? form.entry : (request.body as Static<typeof TravelEntryInput>);
      const base = travelEntries.create(commandContext(request), principal.tenant, body, request.id);
      if (!form) return created(request, reply, base);
      const { write, state, ids } = withAttachments(app, principal.tenantId, base, form.files);
      try {
        return await created(request, reply, write);
      } catch (err) {
        if (state.stored) {
          if (err instanceof DomainError) {
            // A verdict reached before the append (or a lost race): nothing was recorded.
            await deleteBlobs(db, principal.tenantId, ids).catch((e: unknown) =>
              request.log.error({ err: e, attachmentIds: ids }, 'could not delete the blobs of a refused create'),
            );
          } else {
            request.log.warn(
              { err, attachmentIds: ids },
              'create with attachments failed with an unknown outcome; its blobs are left to the orphan sweep',
            );
          }
        }
        throw err;
      }
    },
  );

  async function created(request: FastifyRequest, reply: FastifyReply, write: EntryWrite) {
    const entry = await runEntryWrite(app, request, reply, write);
    reply.code(201).header('Location', `/api/v1/travel-entries/${write.entryId}`);
    return entry;
  }
};
