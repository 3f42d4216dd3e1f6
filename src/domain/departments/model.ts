// The department record as events carry it and state holds it.

/** Everything a create or a full replacement sets; absent optional values are null. */
export interface DepartmentRecord {
  name: string;
  /** As entered (trimmed); unique per tenant among active departments, compared by codeKey. */
  code: string | null;
  /** The parent department (no cycles). */
  parentId: string | null;
  defaultCostCenterId: string | null;
  isArchived: boolean;
}

export interface Department extends DepartmentRecord {
  id: string;
  createdAt: string;
  editedAt: string;
}
