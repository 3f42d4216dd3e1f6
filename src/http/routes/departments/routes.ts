// Departments: create, replace (archiving included), delete, list and read (crud-routes.ts). The
// code (optional) is unique among the company's active departments, held by a claim stream
// (src/application/code-claims); the parent and the default cost center must be active records of
// the company, and the parent chain has no cycle, even under concurrent re-parenting (the parent
// claim of DepartmentWriteGuards).
import { departmentDecider, streamName, type DepartmentFields, type DepartmentState } from '../../../domain/departments/index.js';
import type { FieldErrors } from '../../../domain/errors.js';
import type { Db } from '../../../infra/database.js';
import type { ReadModelGate } from '../../../application/read-model-gate.js';
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

/**
 * The references a create or replacement names, looked up per attempt: active records of the
 * company. Archiving is always allowed (docs/decisions.md): a department being archived may keep the
 * parent and default cost center it has, archived meanwhile, never name new archived ones.
 */
async function factsOf(db: Db, readModels: ReadModelGate, tenantId: string, fields: DepartmentFields, state?: DepartmentState) {
  const lookupErrors: FieldErrors = {};
  const parentId = fields.parentId ?? null;
  const costCenterId = fields.defaultCostCenterId ?? null;
  const stored = state?.kind === 'Existing' && fields.isArchived === true ? state.department : undefined;
  const kept = (id: string, was: string | null | undefined) => was?.toLowerCase() === id.toLowerCase();
  // A miss is believed once both read models have caught up with the log (read-model-gate.ts).
  const [parents, costCenters, parentChain] = await readModels.confirmed(
    ['departments', 'cost-centers'],
    () =>
      Promise.all([
        activeDepartments(db, tenantId, parentId ? [parentId] : [], { includeArchived: stored !== undefined }),
        activeCostCenters(db, tenantId, costCenterId ? [costCenterId] : [], { includeArchived: stored !== undefined }),
        parentId ? ancestorChain(db, tenantId, parentId) : Promise.resolve([]),
      ]),
    ([p, c]) => (parentId ? !p.has(parentId.toLowerCase()) : false) || (costCenterId ? !c.has(costCenterId.toLowerCase()) : false),
  );
  const parent = parentId ? parents.get(parentId.toLowerCase()) : undefined;
  if (parentId && (!parent || (parent.isArchived && !kept(parentId, stored?.parentId)))) {
    lookupErrors.parentId = ['No such active department in this company.'];
  }
  const costCenter = costCenterId ? costCenters.get(costCenterId.toLowerCase()) : undefined;
  if (costCenterId && (!costCenter || (costCenter.isArchived && !kept(costCenterId, stored?.defaultCostCenterId)))) {
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
  // A delete counts references once these have caught up (crud-routes.ts).
  referencedIn: ['employees', 'departments'],
  decider: departmentDecider,
  streamName,
  itemOf: existing,
  writeErrors: ['CODE_TAKEN'],
  // The code claim and the parent claim (no cycles under concurrency) around every write.
  guards: (app) => new DepartmentWriteGuards(app.deps.store),
  commands: (db, readModels) => ({
    create: async (departmentId, fields, ctx) => ({
      type: 'CreateDepartment' as const,
      data: { departmentId, fields, facts: await factsOf(db, readModels, ctx.tenantId, fields) },
    }),
    replace: async (departmentId, fields, ctx, state) => ({
      type: 'ReplaceDepartment' as const,
      data: { departmentId, fields, facts: await factsOf(db, readModels, ctx.tenantId, fields, state) },
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
