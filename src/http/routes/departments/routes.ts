// Departments: create, replace (archiving included), delete, list and read. The code (optional) is
// unique among the company's active departments, held by a claim stream (src/application/code-claims);
// the parent and the default cost center must be active records of the company, and the parent
// chain has no cycle.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { departmentDecider, streamName, type DepartmentFields, type DepartmentState } from '../../../domain/departments/index.js';
import type { FieldErrors } from '../../../domain/errors.js';
import { notFound } from '../../../domain/errors.js';
import { DepartmentWriteGuards } from '../../../application/departments/write-guards.js';
import {
  activeDepartments,
  ancestorChain,
  departmentReferences,
  getDepartment,
  listDepartments,
} from '../../../../projections/departments/queries.js';
import { activeCostCenters } from '../../../../projections/cost-centers/queries.js';
import { departmentsProjection } from '../../../../projections/departments/projection.js';
import { commandContext, etagOf, runCommand } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, IdParams } from '../../schemas/common.js';
import { listResponse, pagingOf } from '../../cursor.js';
import { ref } from '../../schemas/ref.js';
import { OrganizationListQuery } from '../cost-centers/schemas.js';
import { Department, DepartmentBody, DepartmentPage } from './schemas.js';

const PROJECTION = departmentsProjection.name;
const tags = ['Departments'];

const existing = (state: DepartmentState) => {
  if (state.kind !== 'Existing') throw new Error('a department command left no department');
  return state.department;
};

export const departmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  /** The references a create or replacement names, looked up per attempt. */
  const factsOf = async (tenantId: string, fields: DepartmentFields) => {
    const lookupErrors: FieldErrors = {};
    const parentId = fields.parentId ?? null;
    const costCenterId = fields.defaultCostCenterId ?? null;
    const [parents, costCenters, parentChain] = await Promise.all([
      activeDepartments(db, tenantId, parentId ? [parentId] : []),
      activeCostCenters(db, tenantId, costCenterId ? [costCenterId] : []),
      parentId ? ancestorChain(db, tenantId, parentId) : Promise.resolve([]),
    ]);
    if (parentId && !parents.has(parentId.toLowerCase())) lookupErrors.parentId = ['No such active department in this company.'];
    if (costCenterId && !costCenters.has(costCenterId.toLowerCase())) {
      lookupErrors.defaultCostCenterId = ['No such active cost center in this company.'];
    }
    return { lookupErrors, parentChain };
  };
  // The code claim and the parent claim (no cycles under concurrency) around every write.
  const codes = new DepartmentWriteGuards(app.deps.store);

  app.post(
    '/departments',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Create a department',
        body: ref(DepartmentBody),
        response: {
          201: ref(Department),
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
        decider: departmentDecider,
        context: ctx,
        mustNotExist: true,
        command: async () => ({
          type: 'CreateDepartment' as const,
          data: { departmentId: id, fields: request.body, facts: await factsOf(ctx.tenantId, request.body) },
        }),
        beforeAppend: claims.beforeAppend,
      });
      reply.code(201).header('Location', `/api/v1/departments/${id}`);
      return existing(result.state);
    },
  );

  app.put(
    '/departments/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Replace a department (isArchived archives or restores it; omitted optional fields are cleared)',
        params: IdParams,
        body: ref(DepartmentBody),
        response: { 200: ref(Department), ...errorResponses(...EDIT_ERRORS, 'CODE_TAKEN') },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const ctx = commandContext(request);
      const claims = codes.around(ctx, request.id, id);
      const result = await runCommand(app, request, reply, PROJECTION, {
        streamId: streamName(id),
        decider: departmentDecider,
        context: ctx,
        mustExist: { notFoundMessage: 'Department was not found.' },
        command: async () => ({
          type: 'ReplaceDepartment' as const,
          data: { departmentId: id, fields: request.body, facts: await factsOf(ctx.tenantId, request.body) },
        }),
        beforeAppend: claims.beforeAppend,
      });
      await claims.release();
      return existing(result.state);
    },
  );

  app.delete(
    '/departments/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a department no employee or sub-department names (else 409 RESOURCE_IN_USE: archive it instead)',
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
        decider: departmentDecider,
        context: ctx,
        mustExist: { notFoundMessage: 'Department was not found.' },
        command: async () => ({
          type: 'DeleteDepartment' as const,
          data: { departmentId: id, references: await departmentReferences(db, ctx.tenantId, id) },
        }),
        beforeAppend: claims.beforeAppend,
      });
      await claims.release();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/departments',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List departments',
        querystring: OrganizationListQuery,
        response: { 200: DepartmentPage, ...errorResponses() },
      },
    },
    async (request) => {
      const q = request.query;
      const paging = pagingOf('departments', request);
      const r = await listDepartments(db, principalOf(request).tenantId, { ...q, page: paging.request });
      return listResponse(paging, r.rows, r);
    },
  );

  app.get(
    '/departments/:id',
    {
      config: { scope: 'read' },
      schema: { tags, summary: 'Read a department', params: IdParams, response: { 200: ref(Department), ...errorResponses('NOT_FOUND') } },
    },
    async (request, reply) => {
      const row = await getDepartment(db, principalOf(request).tenantId, request.params.id);
      if (!row) throw notFound('Department');
      reply.header('ETag', etagOf(row.revision));
      return row.department;
    },
  );
};
