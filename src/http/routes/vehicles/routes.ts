// Vehicles: create, replace (archiving included), delete, list and read. The registration number is
// unique among the company's active vehicles (ignoring case, spaces and dashes), held by a claim
// stream (src/application/code-claims); a named owner must be an active employee of the company.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { activeCode, vehicleDecider, streamName, type VehicleFields, type VehicleState } from '../../../domain/vehicles/index.js';
import type { FieldErrors } from '../../../domain/errors.js';
import { notFound } from '../../../domain/errors.js';
import { UniqueCodes } from '../../../application/code-claims/unique-codes.js';
import { getVehicle, listVehicles, vehicleReferences } from '../../../../projections/vehicles/queries.js';
import { getEmployee } from '../../../../projections/employees/queries.js';
import { vehiclesProjection } from '../../../../projections/vehicles/projection.js';
import { commandContext, etagOf, runCommand } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, IdParams, PAGE_SIZE_DEFAULT } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { OrganizationListQuery } from '../cost-centers/schemas.js';
import { Vehicle, VehicleBody, VehiclePage } from './schemas.js';

const PROJECTION = vehiclesProjection.name;
const tags = ['Vehicles'];

const existing = (state: VehicleState) => {
  if (state.kind !== 'Existing') throw new Error('a vehicle command left no vehicle');
  return state.vehicle;
};

export const vehicleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  /** The owner must be an employee of the company who is not archived; looked up per attempt. */
  const lookupErrorsOf = async (tenantId: string, fields: VehicleFields): Promise<FieldErrors> => {
    if (!fields.employeeId) return {};
    const row = await getEmployee(db, tenantId, fields.employeeId);
    return row && !row.employee.isArchived ? {} : { employeeId: ['No such active employee in this company.'] };
  };
  const codes = new UniqueCodes(app.deps.store, {
    kind: 'vehicle',
    field: 'registrationNumber',
    activeCode,
    streamName,
    decider: vehicleDecider,
  });

  app.post(
    '/vehicles',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Register a vehicle',
        body: ref(VehicleBody),
        response: {
          201: ref(Vehicle),
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
        decider: vehicleDecider,
        context: ctx,
        mustNotExist: true,
        command: async () => ({
          type: 'CreateVehicle' as const,
          data: { vehicleId: id, fields: request.body, lookupErrors: await lookupErrorsOf(ctx.tenantId, request.body) },
        }),
        beforeAppend: claims.beforeAppend,
      });
      reply.code(201).header('Location', `/api/v1/vehicles/${id}`);
      return existing(result.state);
    },
  );

  app.put(
    '/vehicles/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Replace a vehicle (isArchived archives or restores it; omitted optional fields, engineCapacityCc included, are cleared)',
        params: IdParams,
        body: ref(VehicleBody),
        response: { 200: ref(Vehicle), ...errorResponses(...EDIT_ERRORS, 'CODE_TAKEN') },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const ctx = commandContext(request);
      const claims = codes.around(ctx, request.id, id);
      const result = await runCommand(app, request, reply, PROJECTION, {
        streamId: streamName(id),
        decider: vehicleDecider,
        context: ctx,
        mustExist: { notFoundMessage: 'Vehicle was not found.' },
        command: async () => ({
          type: 'ReplaceVehicle' as const,
          data: { vehicleId: id, fields: request.body, lookupErrors: await lookupErrorsOf(ctx.tenantId, request.body) },
        }),
        beforeAppend: claims.beforeAppend,
      });
      await claims.release();
      return existing(result.state);
    },
  );

  app.delete(
    '/vehicles/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a vehicle no travel entry names (else 409 RESOURCE_IN_USE: archive it instead)',
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
        decider: vehicleDecider,
        context: ctx,
        mustExist: { notFoundMessage: 'Vehicle was not found.' },
        command: async () => ({
          type: 'DeleteVehicle' as const,
          data: { vehicleId: id, references: await vehicleReferences(db, ctx.tenantId, id) },
        }),
        beforeAppend: claims.beforeAppend,
      });
      await claims.release();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/vehicles',
    {
      config: { scope: 'read' },
      schema: { tags, summary: 'List vehicles', querystring: OrganizationListQuery, response: { 200: VehiclePage, ...errorResponses() } },
    },
    async (request) => {
      const q = request.query;
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? PAGE_SIZE_DEFAULT;
      const { items, total } = await listVehicles(db, principalOf(request).tenantId, { ...q, page, pageSize });
      return { items, page, pageSize, total };
    },
  );

  app.get(
    '/vehicles/:id',
    {
      config: { scope: 'read' },
      schema: { tags, summary: 'Read a vehicle', params: IdParams, response: { 200: ref(Vehicle), ...errorResponses('NOT_FOUND') } },
    },
    async (request, reply) => {
      const row = await getVehicle(db, principalOf(request).tenantId, request.params.id);
      if (!row) throw notFound('Vehicle');
      reply.header('ETag', etagOf(row.revision));
      return row.vehicle;
    },
  );
};
