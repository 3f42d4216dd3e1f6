// Employees: register, replace, archive, list and read. Full records carry personal data, so every
// read is recorded in the access log.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EMPLOYEE_CATEGORY, employeeDecider, streamName, type EmployeeState } from '../../../domain/employees/index.js';
import { notFound } from '../../../domain/errors.js';
import { employeeProfileFacts } from '../../../application/employees/profile-facts.js';
import { getEmployee, listEmployees } from '../../../../projections/employees/queries.js';
import { etagOf, runCommand } from '../../command-support.js';
import { answeredNotModified, NotModified } from '../../conditional-read.js';
import { principalOf } from '../../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, IdParams } from '../../schemas/common.js';
import { listResponse, pagingOf } from '../../cursor.js';
import { Employee, EmployeeBody, EmployeeListQuery, EmployeePage } from './schemas.js';
import { ref } from '../../schemas/ref.js';
import { AsOfQuerystring } from '../audit/schemas.js';
import { asOfHeaders, pointInStreamOf } from '../audit/as-of.js';
import { employeeAt } from '../../../application/audit/resources-as-of.js';
import { employeesProjection } from '../../../../projections/employees/projection.js';

const PROJECTION = employeesProjection.name;

/** Every employee command that succeeds leaves a registered employee behind. */
const registered = (state: EmployeeState) => {
  if (state.kind !== 'Registered') throw new Error('an employee command left no employee');
  return state.employee;
};
const tags = ['Employees'];

export const employeeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/employees',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Register an employee',
        body: ref(EmployeeBody),
        response: {
          201: ref(Employee),
          ...errorResponses('EMPLOYEE_ALREADY_EXISTS', 'ALREADY_EXISTS', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'),
        },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const employeeId = randomUUID();
      const result = await runCommand(app, request, reply, PROJECTION, {
        streamId: streamName(employeeId),
        decider: employeeDecider,
        mustNotExist: true,
        // The department is looked up per attempt; its problem and the profile's are one 400.
        command: async () => ({
          type: 'RegisterEmployee' as const,
          data: {
            employeeId,
            fields: request.body,
            ...(await employeeProfileFacts(app.deps.db, app.deps.readModels, tenantId, request.body)),
          },
        }),
      });
      reply.code(201).header('Location', `/api/v1/employees/${employeeId}`);
      return registered(result.state);
    },
  );

  app.put(
    '/employees/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Replace an employee (omitted optional fields are cleared)',
        params: IdParams,
        body: ref(EmployeeBody),
        response: {
          200: ref(Employee),
          ...errorResponses(...EDIT_ERRORS, 'EMPLOYEE_ARCHIVED'),
        },
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const { id } = request.params;
      const result = await runCommand(app, request, reply, PROJECTION, {
        streamId: streamName(id),
        decider: employeeDecider,
        mustExist: { notFoundMessage: 'Employee was not found.' },
        // The department is looked up per attempt; its problem and the profile's are one 400.
        command: async () => ({
          type: 'ReplaceEmployee' as const,
          data: {
            employeeId: id,
            fields: request.body,
            ...(await employeeProfileFacts(app.deps.db, app.deps.readModels, tenantId, request.body)),
          },
        }),
      });
      return registered(result.state);
    },
  );

  app.post(
    '/employees/:id/archive',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Archive an employee (read-only afterwards)',
        params: IdParams,
        response: {
          200: ref(Employee),
          ...errorResponses(...EDIT_ERRORS, 'EMPLOYEE_ARCHIVED'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const result = await runCommand(app, request, reply, PROJECTION, {
        streamId: streamName(id),
        decider: employeeDecider,
        mustExist: { notFoundMessage: 'Employee was not found.' },
        command: { type: 'ArchiveEmployee' as const, data: { employeeId: id } },
      });
      return registered(result.state);
    },
  );

  app.get(
    '/employees',
    {
      config: { scope: 'read', personalData: { resourceType: EMPLOYEE_CATEGORY } },
      schema: { tags, summary: 'List employees', querystring: EmployeeListQuery, response: { 200: EmployeePage, ...errorResponses() } },
    },
    async (request) => {
      const q = request.query;
      const paging = pagingOf('employees', request);
      const r = await listEmployees(app.deps.db, principalOf(request).tenantId, { ...q, page: paging.request });
      return listResponse(paging, r.rows, r);
    },
  );

  app.get(
    '/employees/:id',
    {
      config: { scope: 'read', personalData: { resourceType: EMPLOYEE_CATEGORY } },
      schema: {
        tags,
        summary: 'Read an employee: the full record with contact data, address, tax id and bank account',
        description:
          'With `asOf` or `revision` (audit scope too): the employee as it was then, folded from its events; the ETag and ' +
          'Resource-Revision headers name the revision, Resource-Recorded-At when the store recorded it (what asOf compares: ' +
          'a few milliseconds after its editedAt), and a revision-pinned answer is immutable. See docs/auditing.md.',
        params: IdParams,
        querystring: AsOfQuerystring,
        response: { 200: ref(Employee), 304: NotModified, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      // Live or as of a point, the record is the employee stream's own state at the revision the
      // ETag names, so If-None-Match can be answered 304 (conditional-read.ts).
      const point = pointInStreamOf(request, request.query);
      if (point) {
        const at = await employeeAt(app.deps.store, principalOf(request).tenantId, request.params.id, point);
        if (!at) throw notFound('Employee');
        asOfHeaders(reply, point, at);
        if (answeredNotModified(request, reply, etagOf(at.revision))) return reply;
        return at.employee;
      }
      const row = await getEmployee(app.deps.db, principalOf(request).tenantId, request.params.id);
      if (!row) throw notFound('Employee');
      if (answeredNotModified(request, reply, etagOf(row.revision))) return reply;
      return row.employee;
    },
  );
};
