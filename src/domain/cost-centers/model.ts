// The cost-center record as events carry it and state holds it.

/** Everything a create or a full replacement sets. */
export interface CostCenterRecord {
  /** As entered (trimmed); unique per tenant among active cost centers, compared by codeKey. */
  code: string;
  name: string;
  isArchived: boolean;
}

export interface CostCenter extends CostCenterRecord {
  id: string;
  createdAt: string;
  editedAt: string;
}
