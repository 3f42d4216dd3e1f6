// Cost-center decisions. Archiving (isArchived on PUT) is always allowed; a delete of a cost center
// that something still names is 409 RESOURCE_IN_USE with the counts. Code uniqueness is held by the
// shell's claim (src/domain/code-claims), not here.
import type { CommandContext } from '../decider.js';
import { conflict, notFound, validationError, type FieldErrors } from '../errors.js';
import { invisibleCharacterProblem, sameJson } from '../shared/text.js';
import { resourceInUse } from '../shared/references.js';
import type { CostCenterCommand, CostCenterFields } from './commands.js';
import type { CostCenterEvent } from './events.js';
import type { CostCenter, CostCenterRecord } from './model.js';
import type { CostCenterState } from './state.js';

/**
 * `stored`: the record as it is, on a replace. A code or name it already holds is kept as it is,
 * whatever it contains, so archiving stays allowed for records stored before the rule on invisible
 * characters.
 */
function validate(fields: CostCenterFields, stored?: CostCenterRecord): CostCenterRecord {
  const errors: FieldErrors = {};
  const code = fields.code.trim();
  const name = fields.name.trim();
  if (code === '') errors.code = ['Required.'];
  if (name === '') errors.name = ['Required.'];
  const codeProblem = code === stored?.code ? null : invisibleCharacterProblem(code);
  const nameProblem = name === stored?.name ? null : invisibleCharacterProblem(name);
  if (codeProblem) errors.code = [codeProblem];
  if (nameProblem) errors.name = [nameProblem];
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { code, name, isArchived: fields.isArchived ?? false };
}

function existing(state: CostCenterState): CostCenter {
  if (state.kind !== 'Existing') throw notFound('Cost center');
  return state.costCenter;
}

const recordOf = ({ code, name, isArchived }: CostCenter): CostCenterRecord => ({ code, name, isArchived });

export function decide(command: CostCenterCommand, state: CostCenterState, ctx: CommandContext): CostCenterEvent[] {
  switch (command.type) {
    case 'CreateCostCenter': {
      const { costCenterId, fields } = command.data;
      if (state.kind !== 'Absent') throw conflict('ALREADY_EXISTS', 'A cost center with this id already exists.');
      return [{ type: 'CostCenterCreated', data: { costCenterId, record: validate(fields), at: ctx.now } }];
    }
    case 'ReplaceCostCenter': {
      const current = existing(state);
      const record = validate(command.data.fields, recordOf(current));
      if (sameJson(record, recordOf(current))) return [];
      return [{ type: 'CostCenterUpdated', data: { costCenterId: current.id, record, at: ctx.now } }];
    }
    case 'DeleteCostCenter': {
      const current = existing(state);
      resourceInUse('Cost center', command.data.references);
      return [{ type: 'CostCenterDeleted', data: { costCenterId: current.id, at: ctx.now } }];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}
