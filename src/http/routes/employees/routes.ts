// Employees: register, replace, archive, list and read. Full records carry personal data, so every
// read is recorded in the access log.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EMPLOYEE_CATEGORY, employeeDecider, streamName, type EmployeeState } from '../../../domain/employees/index.js';
import { notFound, validationError } from '../../../domain/errors.js';
import { activeDepartments } from '../../../../projections/departments/queries.js';
import { getTenant } from '../../../tenancy/tenants.js';
import { municipalityCodes } from '../../../application/reference/municipalities.js';
import { getEmployee, listEmployees } from '../../../../projections/employees/queries.js';
import { etagOf, runCommand } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, IdParams, PAGE_SIZE_DEFAULT } from '../../schemas/common.js';
import { Employee, EmployeeBody, EmployeeListQuery, EmployeePage } from './schemas.js';
import { ref } from '../../schemas/ref.js';
import { employeesProjection } from '../../../../projections/employees/projection.js';

const PROJECTION = employeesProjection.name;

/** Every employee command that succeeds leaves a registered employee behind. */
const registered = (state: EmployeeState) => {
  if (state.kind !== 'Registered') throw new Error('an employee command left no employee');
  return state.employee;
};
const tags = ['Employees'];

export const employeeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const definitionsOf = async (tenantId: string) => (await getTenant(app.deps.db, tenantId))!.customFields;
  /** The employee's department must be an active department of the company (looked up per attempt). */
  const checkDepartment = async (tenantId: string, departmentId: string | null | undefined) => {
    if (!departmentId) return;
    const found = await activeDepartments(app.deps.db, tenantId, [departmentId]);
    if (!found.has(departmentId.toLowerCase())) throw validationError({ departmentId: ['No such active department in this company.'] });
  };

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
        command: async () => {
          await checkDepartment(tenantId, request.body.departmentId);
          return {
            type: 'RegisterEmployee' as const,
            data: {
              employeeId,
              fields: request.body,
              customFieldDefinitions: await definitionsOf(tenantId),
              municipalityCodes: municipalityCodes(),
            },
          };
        },
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
        command: async () => {
          await checkDepartment(tenantId, request.body.departmentId);
          return {
            type: 'ReplaceEmployee' as const,
            data: {
              employeeId: id,
              fields: request.body,
              customFieldDefinitions: await definitionsOf(tenantId),
              municipalityCodes: municipalityCodes(),
            },
          };
        },
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
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? PAGE_SIZE_DEFAULT;
      const { items, total } = await listEmployees(app.deps.db, principalOf(request).tenantId, { ...q, page, pageSize });
      return { items, page, pageSize, total };
    },
  );

  app.get(
    '/employees/:id',
    {
      config: { scope: 'read', personalData: { resourceType: EMPLOYEE_CATEGORY } },
      schema: {
        tags,
        summary: 'Read an employee: the full record with contact data, address, tax id and bank account',
        params: IdParams,
        response: { 200: ref(Employee), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const row = await getEmployee(app.deps.db, principalOf(request).tenantId, request.params.id);
      if (!row) throw notFound('Employee');
      reply.header('ETag', etagOf(row.revision));
      return row.employee;
    },
  );
};
