// Cost-center commands. The client's fields arrive as parsed JSON (the HTTP schema has checked the
// types); the references a delete would break are the shell's lookup in the read models.

/** The request body of POST and PUT. Omitted optional fields are cleared on PUT. */
export interface CostCenterFields {
  code: string;
  name: string;
  isArchived?: boolean | null;
}

export type CreateCostCenter = { type: 'CreateCostCenter'; data: { costCenterId: string; fields: CostCenterFields } };
export type ReplaceCostCenter = { type: 'ReplaceCostCenter'; data: { costCenterId: string; fields: CostCenterFields } };
export type DeleteCostCenter = {
  type: 'DeleteCostCenter';
  /** `references`: what still names the cost center, counted by kind (shell lookup). */
  data: { costCenterId: string; references: Record<string, number> };
};

export type CostCenterCommand = CreateCostCenter | ReplaceCostCenter | DeleteCostCenter;
