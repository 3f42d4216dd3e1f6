// Departments: create, replace (archiving included), delete, list and read (crud-routes.ts). The
// code (optional) is unique among the company's active departments, held by a claim stream
// (src/application/code-claims); the parent and the default cost center must be active records of
// the company, and the parent chain has no cycle, even under concurrent re-parenting (the parent
// claim of DepartmentWriteGuards).
import { departmentDecider, streamName, type DepartmentFields, type DepartmentState } from '../../../domain/departments/index.js';
import type { FieldErrors } from '../../../domain/errors.js';
import type { Db } from '../../../infra/database.js';
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
import { crudRoutes } from '../crud-routes.js';
import { OrganizationListQuery } from '../cost-centers/schemas.js';
import { Department, DepartmentBody, DepartmentPage } from './schemas.js';

const existing = (state: DepartmentState) => {
  if (state.kind !== 'Existing') throw new Error('a department command left no department');
  return state.department;
};

/** The references a create or replacement names, looked up per attempt. */
async function factsOf(db: Db, tenantId: string, fields: DepartmentFields) {
  const lookupErrors: FieldErrors = {};
  const parentId = fields.parentId ?? null;
  const costCenterId = fields.defaultCostCenterId ?? null;
  // Archiving is always allowed (docs/decisions.md): a department being archived may name an
  // archived parent or cost center, which must still exist in the company.
  const includeArchived = fields.isArchived === true;
  const [parents, costCenters, parentChain] = await Promise.all([
    activeDepartments(db, tenantId, parentId ? [parentId] : [], { includeArchived }),
    activeCostCenters(db, tenantId, costCenterId ? [costCenterId] : [], { includeArchived }),
    parentId ? ancestorChain(db, tenantId, parentId) : Promise.resolve([]),
  ]);
  if (parentId && !parents.has(parentId.toLowerCase())) lookupErrors.parentId = ['No such active department in this company.'];
  if (costCenterId && !costCenters.has(costCenterId.toLowerCase())) {
    lookupErrors.defaultCostCenterId = ['No such active cost center in this company.'];
  }
  return { lookupErrors, parentChain };
}

export const departmentRoutes = crudRoutes({
  path: '/departments',
  tags: ['Departments'],
  noun: 'Department',
  summaries: {
    create: 'Create a department',
    replace: 'Replace a department (isArchived archives or restores it; omitted optional fields are cleared)',
    delete: 'Delete a department no employee or sub-department names (else 409 RESOURCE_IN_USE: archive it instead)',
    list: 'List departments',
    read: 'Read a department',
  },
  schemas: { body: DepartmentBody, item: Department, page: DepartmentPage, listQuery: OrganizationListQuery },
  projection: departmentsProjection.name,
  decider: departmentDecider,
  streamName,
  itemOf: existing,
  writeErrors: ['CODE_TAKEN'],
  // The code claim and the parent claim (no cycles under concurrency) around every write.
  guards: (app) => new DepartmentWriteGuards(app.deps.store),
  commands: (db) => ({
    create: async (departmentId, fields, ctx) => ({
      type: 'CreateDepartment' as const,
      data: { departmentId, fields, facts: await factsOf(db, ctx.tenantId, fields) },
    }),
    replace: async (departmentId, fields, ctx) => ({
      type: 'ReplaceDepartment' as const,
      data: { departmentId, fields, facts: await factsOf(db, ctx.tenantId, fields) },
    }),
    delete: async (departmentId, ctx) => ({
      type: 'DeleteDepartment' as const,
      data: { departmentId, references: await departmentReferences(db, ctx.tenantId, departmentId) },
    }),
  }),
  reads: {
    get: async (db, tenantId, id) => {
      const row = await getDepartment(db, tenantId, id);
      return row && { item: row.department, revision: row.revision };
    },
    list: listDepartments,
  },
});
