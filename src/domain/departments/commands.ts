// Department commands. The client's fields arrive as parsed JSON (the HTTP schema has checked the
// types); the references are the shell's lookups in the read models.
import type { FieldErrors } from '../errors.js';

/** The request body of POST and PUT. Omitted optional fields are cleared on PUT. */
export interface DepartmentFields {
  name: string;
  code?: string | null;
  parentId?: string | null;
  defaultCostCenterId?: string | null;
  isArchived?: boolean | null;
}

/** What the shell looked up for a create or replacement. */
export interface DepartmentFacts {
  /** `parentId` or `defaultCostCenterId` naming no active record of the tenant. */
  lookupErrors: FieldErrors;
  /** The parent and its ancestors, nearest first (the department must not be among them). */
  parentChain: string[];
}

export type CreateDepartment = {
  type: 'CreateDepartment';
  data: { departmentId: string; fields: DepartmentFields; facts: DepartmentFacts };
};
export type ReplaceDepartment = {
  type: 'ReplaceDepartment';
  data: { departmentId: string; fields: DepartmentFields; facts: DepartmentFacts };
};
export type DeleteDepartment = {
  type: 'DeleteDepartment';
  /** `references`: what still names the department, counted by kind (shell lookup). */
  data: { departmentId: string; references: Record<string, number> };
};

export type DepartmentCommand = CreateDepartment | ReplaceDepartment | DeleteDepartment;
