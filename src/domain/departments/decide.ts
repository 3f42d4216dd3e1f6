// Department decisions. The parent must not be the department itself or one of its descendants: the
// shell looks up the parent's chain of ancestors in the read model (the quick answer, merged with
// the other field errors; under concurrency the hierarchy claim, ./hierarchy.ts, is what holds).
// References that name no active record of the tenant are the shell's lookup problems, judged with
// the core's in one 400. Archiving is always allowed; a delete of a department that employees or
// sub-departments still name is 409 RESOURCE_IN_USE. Code uniqueness is held by the shell's claim
// (src/domain/code-claims).
import type { CommandContext } from '../decider.js';
import { conflict, notFound, validationError, type FieldErrors } from '../errors.js';
import { invisibleCharacterProblem, sameJson } from '../shared/text.js';
import { judgeWithLookups, resourceInUse } from '../shared/references.js';
import type { DepartmentFacts, DepartmentCommand, DepartmentFields } from './commands.js';
import type { DepartmentEvent } from './events.js';
import type { Department, DepartmentRecord } from './model.js';
import type { DepartmentState } from './state.js';

const blankToNull = (s: string | null | undefined): string | null => (s == null || s.trim() === '' ? null : s.trim());

/**
 * `stored`: the department as it is, on a replace. A code or name it already holds is kept as it
 * is, whatever it contains, so archiving stays allowed for records stored before the rule on
 * invisible characters.
 */
function validate(departmentId: string, fields: DepartmentFields, facts: DepartmentFacts, stored?: DepartmentRecord): DepartmentRecord {
  const errors: FieldErrors = {};
  const name = fields.name.trim();
  const code = blankToNull(fields.code);
  if (name === '') errors.name = ['Required.'];
  const nameProblem = name === stored?.name ? null : invisibleCharacterProblem(name);
  const codeProblem = code === stored?.code ? null : invisibleCharacterProblem(code);
  if (nameProblem) errors.name = [nameProblem];
  if (codeProblem) errors.code = [codeProblem];
  const parentId = fields.parentId ?? null;
  if (parentId !== null && (parentId.toLowerCase() === departmentId.toLowerCase() || facts.parentChain.includes(departmentId))) {
    errors.parentId = ['A department cannot be its own parent or the parent of one of its ancestors.'];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return {
    name,
    code,
    parentId,
    defaultCostCenterId: fields.defaultCostCenterId ?? null,
    isArchived: fields.isArchived ?? false,
  };
}

function existing(state: DepartmentState): Department {
  if (state.kind !== 'Existing') throw notFound('Department');
  return state.department;
}

const recordOf = ({ name, code, parentId, defaultCostCenterId, isArchived }: Department): DepartmentRecord => ({
  name,
  code,
  parentId,
  defaultCostCenterId,
  isArchived,
});

export function decide(command: DepartmentCommand, state: DepartmentState, ctx: CommandContext): DepartmentEvent[] {
  switch (command.type) {
    case 'CreateDepartment': {
      const { departmentId, fields, facts } = command.data;
      if (state.kind !== 'Absent') throw conflict('ALREADY_EXISTS', 'A department with this id already exists.');
      return judgeWithLookups(facts.lookupErrors, () => [
        { type: 'DepartmentCreated', data: { departmentId, record: validate(departmentId, fields, facts), at: ctx.now } },
      ]);
    }
    case 'ReplaceDepartment': {
      const current = existing(state);
      const { fields, facts } = command.data;
      return judgeWithLookups(facts.lookupErrors, () => {
        const record = validate(current.id, fields, facts, recordOf(current));
        if (sameJson(record, recordOf(current))) return [];
        return [{ type: 'DepartmentUpdated', data: { departmentId: current.id, record, at: ctx.now } }];
      });
    }
    case 'DeleteDepartment': {
      const current = existing(state);
      resourceInUse('Department', command.data.references);
      return [{ type: 'DepartmentDeleted', data: { departmentId: current.id, at: ctx.now } }];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}
