// Travel entries: full replacement, legacy import, delete (drafts only), read and list (list-route.ts). The create
// (JSON or multipart with attachments) is in multipart-create.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntryWrite } from '../../../application/travel-entries/writes.js';
import { notFound } from '../../../domain/errors.js';
import { TRAVEL_ENTRY_CATEGORY } from '../../../domain/travel-entries/index.js';
import { getTravelEntry } from '../../../../projections/travel-entries/queries.js';
import { deleteBlobs } from '../../../attachments/blob-store.js';
import { commandContext, etagOf, runCommand } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, IdParams } from '../../schemas/common.js';
import { PROJECTION, runEntryWrite } from './entry-command.js';
import { sendCachedRead } from '../../read-cache.js';
import { presentTravelEntry } from './present.js';
import { ENTRY_CREATE_ERRORS, TravelEntry, TravelEntryImportInput, TravelEntryInput, TravelEntryTombstone } from './schemas.js';
import { presentTombstone } from './tombstone.js';
import { travelEntryListRoute } from './list-route.js';
import { ref } from '../../schemas/ref.js';
import { AsOfQuerystring } from '../audit/schemas.js';
import { asOfHeaders, pointInStreamOf } from '../audit/as-of.js';
import { travelEntryAt } from '../../../application/audit/resources-as-of.js';
import { referenceNamesAt } from '../../../application/audit/reference-names-at.js';

const tags = ['Travel entries'];
const entryRef = ref(TravelEntry);
const createdResponses = {
  201: entryRef,
  ...errorResponses(...ENTRY_CREATE_ERRORS),
};

export const travelEntryRoutes: FastifyPluginAsyncTypebox = async (app, opts) => {
  const { db, travelEntries } = app.deps;
  /** A new entry (created or imported): 201 with its Location. */
  const created = async (request: FastifyRequest, reply: FastifyReply, write: EntryWrite) => {
    const entry = await runEntryWrite(app, request, reply, write);
    reply.code(201).header('Location', `/api/v1/travel-entries/${write.entryId}`);
    return entry;
  };

  app.post(
    '/travel-entries/import',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Import a legacy entry (dated before 2023: created locked)',
        body: ref(TravelEntryImportInput),
        response: createdResponses,
      },
    },
    async (request, reply) =>
      created(request, reply, travelEntries.importEntry(commandContext(request), principalOf(request).tenant, request.body, request.id)),
  );

  app.put(
    '/travel-entries/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Replace a travel entry (omitted optional fields are cleared; send stored place ids back to keep them)',
        params: IdParams,
        body: ref(TravelEntryInput),
        response: {
          200: entryRef,
          ...errorResponses(...EDIT_ERRORS, 'ENTRY_LOCKED', 'EXCHANGE_RATE_UNAVAILABLE', 'PER_DIEM_RATE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) =>
      runEntryWrite(
        app,
        request,
        reply,
        travelEntries.replace(commandContext(request), principalOf(request).tenant, request.params.id, request.body),
      ),
  );

  app.get(
    '/travel-entries/:id',
    {
      config: { scope: 'read', personalData: { resourceType: TRAVEL_ENTRY_CATEGORY } },
      schema: {
        tags,
        summary: 'Read a travel entry with expenses, per diems, allocations, attachments and free text',
        description:
          'With `asOf` or `revision` (audit scope too): the entry as it was then, folded from its events; the ETag and ' +
          'Resource-Revision headers name the revision, Resource-Recorded-At when the store recorded it (what asOf compares: ' +
          'a few milliseconds after its editedAt), and a revision-pinned answer is immutable. See docs/auditing.md.',
        params: IdParams,
        querystring: AsOfQuerystring,
        response: { 200: entryRef, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const { tenantId } = principalOf(request);
      const point = pointInStreamOf(request, request.query);
      if (point) {
        const at = await travelEntryAt(app.deps.store, tenantId, request.params.id, point);
        if (!at) throw notFound('Travel entry');
        asOfHeaders(reply, point, at);
        // The names of its vehicle and cost centers as they were at the point: when the revision was
        // recorded, or at the instant asked for. A pinned answer then never changes (it is immutable).
        const namesAt = 'revision' in point ? at.recordedAt : point.asOf;
        return presentTravelEntry({ ...at.entry, referenceNames: await referenceNamesAt(app.deps.store, tenantId, at.entry, namesAt) });
      }
      const found = await sendCachedRead(app, reply, PROJECTION, tenantId, request.params.id, async () => {
        const row = await getTravelEntry(db, tenantId, request.params.id);
        return row && { etag: etagOf(row.revision), payload: presentTravelEntry(row.entry) };
      });
      if (!found) throw notFound('Travel entry');
      return reply;
    },
  );

  // The list serves stored JSON text (issue 13): its own file.
  await travelEntryListRoute(app, opts);

  app.delete(
    '/travel-entries/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a travel entry that was never submitted (Draft, not locked); answers its tombstone',
        description:
          'Recorded as an event (TravelEntryDeleted, an entry.updated webhook with isDeleted true). The entry then answers 404 to ' +
          'GET and to every write, leaves the default list and is listed as a tombstone with includeDeleted=true. Its attachments ' +
          'are deleted with it. Any other status: 409 INVALID_TRANSITION naming it (currentStatus); an entry imported from ' +
          'before 2023: 409 ENTRY_LOCKED, as every command on it.',
        params: IdParams,
        response: { 200: ref(TravelEntryTombstone), ...errorResponses(...EDIT_ERRORS, 'INVALID_TRANSITION', 'ENTRY_LOCKED') },
      },
    },
    async (request, reply) => {
      const entryId = request.params.id;
      const { tenant, tenantId } = principalOf(request);
      let attachmentIds: string[] = [];
      const write = travelEntries.command(
        entryId,
        commandContext(request),
        tenant,
        async () => ({ type: 'DeleteTravelEntry', data: { entryId } }),
        {
          beforeAppend: async (_events, state) => {
            attachmentIds = state.kind === 'Existing' ? state.entry.attachments.map((a) => a.id) : [];
          },
        },
      );
      const result = await runCommand(app, request, reply, PROJECTION, write);
      if (result.state.kind !== 'Deleted') throw new Error('a delete left the entry in place');
      // Only after the event: a failed delete leaves orphans for the sweep (a deleted entry lists no attachment).
      await deleteBlobs(db, tenantId, attachmentIds).catch((err: unknown) =>
        request.log.error({ err, entryId, attachmentIds }, 'could not delete the blobs of a deleted entry'),
      );
      return presentTombstone(result.state.entry, result.state.deletedAt);
    },
  );
};
