// Cost centers: create, replace (archiving included), delete, list and read. The code is unique
// among the company's active cost centers, held by a claim stream (src/application/code-claims).
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { activeCode, costCenterDecider, streamName, type CostCenterState } from '../../../domain/cost-centers/index.js';
import { notFound } from '../../../domain/errors.js';
import { UniqueCodes } from '../../../application/code-claims/unique-codes.js';
import { costCenterReferences, getCostCenter, listCostCenters } from '../../../../projections/cost-centers/queries.js';
import { costCentersProjection } from '../../../../projections/cost-centers/projection.js';
import { commandContext, etagOf, runCommand } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, IdParams, PAGE_SIZE_DEFAULT } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { CostCenter, CostCenterBody, CostCenterPage, OrganizationListQuery } from './schemas.js';

const PROJECTION = costCentersProjection.name;
const tags = ['Cost centers'];

const existing = (state: CostCenterState) => {
  if (state.kind !== 'Existing') throw new Error('a cost-center command left no cost center');
  return state.costCenter;
};

export const costCenterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const codes = new UniqueCodes(app.deps.store, {
    kind: 'costCenter',
    field: 'code',
    activeCode,
    streamName,
    decider: costCenterDecider,
  });

  app.post(
    '/cost-centers',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Create a cost center',
        body: ref(CostCenterBody),
        response: {
          201: ref(CostCenter),
          ...errorResponses('CODE_TAKEN', 'ALREADY_EXISTS', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'),
        },
      },
    },
    async (request, reply) => {
      const id = randomUUID();
      const ctx = commandContext(request);
      const claims = codes.around(ctx, request.id, id);
      const result = await runCommand(app, request, reply, PROJECTION, {
        streamId: streamName(id),
        decider: costCenterDecider,
        context: ctx,
        mustNotExist: true,
        command: { type: 'CreateCostCenter', data: { costCenterId: id, fields: request.body } },
        beforeAppend: claims.beforeAppend,
      });
      reply.code(201).header('Location', `/api/v1/cost-centers/${id}`);
      return existing(result.state);
    },
  );

  app.put(
    '/cost-centers/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Replace a cost center (isArchived archives or restores it)',
        params: IdParams,
        body: ref(CostCenterBody),
        response: { 200: ref(CostCenter), ...errorResponses(...EDIT_ERRORS, 'CODE_TAKEN') },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const ctx = commandContext(request);
      const claims = codes.around(ctx, request.id, id);
      const result = await runCommand(app, request, reply, PROJECTION, {
        streamId: streamName(id),
        decider: costCenterDecider,
        context: ctx,
        mustExist: { notFoundMessage: 'Cost center was not found.' },
        command: { type: 'ReplaceCostCenter', data: { costCenterId: id, fields: request.body } },
        beforeAppend: claims.beforeAppend,
      });
      await claims.release();
      return existing(result.state);
    },
  );

  app.delete(
    '/cost-centers/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a cost center no entry or department names (else 409 RESOURCE_IN_USE: archive it instead)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(...EDIT_ERRORS, 'RESOURCE_IN_USE') },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const ctx = commandContext(request);
      const claims = codes.around(ctx, request.id, id);
      await runCommand(app, request, reply, PROJECTION, {
        streamId: streamName(id),
        decider: costCenterDecider,
        context: ctx,
        mustExist: { notFoundMessage: 'Cost center was not found.' },
        command: async () => ({
          type: 'DeleteCostCenter' as const,
          data: { costCenterId: id, references: await costCenterReferences(app.deps.db, ctx.tenantId, id) },
        }),
        beforeAppend: claims.beforeAppend,
      });
      await claims.release();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/cost-centers',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List cost centers',
        querystring: OrganizationListQuery,
        response: { 200: CostCenterPage, ...errorResponses() },
      },
    },
    async (request) => {
      const q = request.query;
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? PAGE_SIZE_DEFAULT;
      const { items, total } = await listCostCenters(app.deps.db, principalOf(request).tenantId, { ...q, page, pageSize });
      return { items, page, pageSize, total };
    },
  );

  app.get(
    '/cost-centers/:id',
    {
      config: { scope: 'read' },
      schema: { tags, summary: 'Read a cost center', params: IdParams, response: { 200: ref(CostCenter), ...errorResponses('NOT_FOUND') } },
    },
    async (request, reply) => {
      const row = await getCostCenter(app.deps.db, principalOf(request).tenantId, request.params.id);
      if (!row) throw notFound('Cost center');
      reply.header('ETag', etagOf(row.revision));
      return row.costCenter;
    },
  );
};
