// Travel entries: atomic create with children, full replacement, legacy import, read and list.
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../../domain/errors.js';
import { effectiveEntryDate, type TravelEntryDraft } from '../../../domain/travel-entries/index.js';
import { travelEntryDecider, TRAVEL_ENTRY_CATEGORY } from '../../../domain/travel-entries/index.js';
import { entryDraft, type Body } from '../../../application/travel-entries/drafts.js';
import { checkEntryCommand } from '../../../application/travel-entries/check.js';
import { RateErrors } from '../../../application/travel-entries/conversions.js';
import { getTravelEntry, listTravelEntries } from '../../../../projections/travel-entries/queries.js';
import { commandContext, etagOf } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses, IdParams, PAGE_SIZE_DEFAULT } from '../../schemas/common.js';
import { PROJECTION, runEntryCommand } from './entry-command.js';
import { sendCachedRead } from '../../read-cache.js';
import { presentTravelEntry } from './present.js';
import { TravelEntryListQuery } from './schemas.js';

const tags = ['Travel entries'];
const entryRef = Type.Ref('TravelEntry');

export const travelEntryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, travelEntries } = app.deps;

  app.post(
    '/travel-entries',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Create a travel entry with its expenses, per diems and cost-center allocations (atomic)',
        body: Type.Ref('TravelEntryInput'),
        response: { 201: entryRef, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const { tenantId, tenant } = principalOf(request);
      const ctx = commandContext(request);
      const entryId = randomUUID();
      const body = request.body as Body;
      // Check everything first, so a rejected create reserves no entry number (no gaps).
      const rateErrors = new RateErrors();
      const draft: TravelEntryDraft = await entryDraft(db, tenant.country, body, ctx.now, rateErrors);
      const probe = { type: 'CreateTravelEntry' as const, data: { entryId, entryNumber: '0000-00000', entry: draft } };
      checkEntryCommand(
        probe,
        travelEntryDecider.initialState(),
        ctx,
        rateErrors,
        await travelEntries.employees.errorsFor(tenantId, body.employeeId),
      );
      const year = effectiveEntryDate(draft, ctx.now).slice(0, 4);
      const entryNumber = await travelEntries.numbers.reserve(ctx, year, entryId, request.id);
      const entry = await runEntryCommand(
        app,
        request,
        reply,
        entryId,
        async () => ({ type: 'CreateTravelEntry', data: { entryId, entryNumber, entry: draft } }),
        { create: true, ctx, tenant },
      );
      reply.code(201).header('Location', `/api/v1/travel-entries/${entryId}`);
      return entry;
    },
  );

  app.post(
    '/travel-entries/import',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Import a legacy entry (dated before 2023: created locked)',
        body: Type.Ref('TravelEntryImportInput'),
        response: { 201: entryRef, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const entryId = randomUUID();
      const { entryNumber, status, paidOutAt, ...rest } = request.body as Body & {
        entryNumber: string;
        status: string;
        paidOutAt?: string | null;
      };
      const entry = await runEntryCommand(
        app,
        request,
        reply,
        entryId,
        async (f) => {
          f.lookupErrors = await travelEntries.employees.errorsFor(tenantId, rest.employeeId);
          const command = {
            type: 'ImportTravelEntry' as const,
            data: {
              entryId,
              entryNumber,
              status,
              paidOutAt: paidOutAt ?? null,
              entry: await entryDraft(db, f.tenant.country, rest, f.ctx.now, f.rateErrors),
            },
          };
          // The number is claimed only once the import passed every check (a refused import holds no
          // number), and before the entry is appended (two imports of one number: one wins, one 409s).
          checkEntryCommand(command, f.state, f.ctx, f.rateErrors, f.lookupErrors);
          const imported = travelEntryDecider.decide(command, f.state, f.ctx)[0];
          await travelEntries.numbers.claimImported(
            f.ctx,
            imported?.type === 'TravelEntryImported' ? imported.data.entryNumber : entryNumber,
            entryId,
            request.id,
          );
          return command;
        },
        { create: true },
      );
      reply.code(201).header('Location', `/api/v1/travel-entries/${entryId}`);
      return entry;
    },
  );

  app.put(
    '/travel-entries/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Replace a travel entry (omitted optional fields are cleared; send stored place ids back to keep them)',
        params: IdParams,
        body: Type.Ref('TravelEntryInput'),
        response: { 200: entryRef, ...errorResponses(404, 409, 412) },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const body = request.body as Body;
      return runEntryCommand(app, request, reply, request.params.id, async (f) => {
        f.lookupErrors = await travelEntries.employees.errorsFor(tenantId, body.employeeId);
        return {
          type: 'ReplaceTravelEntry',
          data: { entryId: request.params.id, entry: await entryDraft(db, f.tenant.country, body, f.ctx.now, f.rateErrors) },
        };
      });
    },
  );

  app.get(
    '/travel-entries/:id',
    {
      config: { scope: 'read', personalData: { resourceType: TRAVEL_ENTRY_CATEGORY } },
      schema: {
        tags,
        summary: 'Read a travel entry with expenses, per diems, allocations, attachments and free text',
        params: IdParams,
        response: { 200: entryRef, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { tenantId } = principalOf(request);
      const found = await sendCachedRead(app, reply, PROJECTION, tenantId, request.params.id, async () => {
        const row = await getTravelEntry(db, tenantId, request.params.id);
        return row && { etag: etagOf(row.revision), payload: presentTravelEntry(row.entry) };
      });
      if (!found) throw notFound('Travel entry');
      return reply;
    },
  );

  app.get(
    '/travel-entries',
    {
      config: { scope: 'read', personalData: { resourceType: TRAVEL_ENTRY_CATEGORY } },
      schema: {
        tags,
        summary: 'List travel entries',
        querystring: TravelEntryListQuery,
        response: { 200: Type.Ref('TravelEntryPage'), ...errorResponses() },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const pageSize = request.query.pageSize ?? PAGE_SIZE_DEFAULT;
      const { items, total } = await listTravelEntries(db, principalOf(request).tenantId, {
        ...request.query,
        status: request.query.status as string | undefined,
        page,
        pageSize,
      });
      return { items: items.map(presentTravelEntry), page, pageSize, total };
    },
  );
};
