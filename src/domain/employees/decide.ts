// Employee decisions. An archived employee is read-only: every write answers 409 EMPLOYEE_ARCHIVED.
// The shell's lookup problems (an unknown or archived department) and the profile's own are one 400.
import type { CommandContext } from '../decider.js';
import { conflict, notFound } from '../errors.js';
import { judgeWithLookups } from '../shared/references.js';
import { sameJson } from '../shared/text.js';
import type { EmployeeCommand, RegisterEmployee } from './commands.js';
import type { EmployeeEvent } from './events.js';
import type { Employee, EmployeeProfile } from './model.js';
import type { EmployeeState } from './state.js';
import { validateProfile } from './validate-profile.js';

function existing(state: EmployeeState): Employee {
  if (state.kind !== 'Registered') throw notFound('Employee');
  if (state.employee.isArchived) {
    throw conflict('EMPLOYEE_ARCHIVED', 'The employee is archived and can no longer be changed.', { employeeId: state.employee.id });
  }
  return state.employee;
}

/**
 * The profile of a register or replacement, or one 400 with the profile's and the lookups' field
 * errors. `stored`: the profile a replacement changes (its unchanged texts pass as they are).
 */
function judgedProfile(data: RegisterEmployee['data'], stored?: EmployeeProfile): EmployeeProfile {
  const [profile] = judgeWithLookups(data.lookupErrors ?? {}, () => [
    validateProfile(data.fields, data.customFieldDefinitions, data.municipalityCodes, stored),
  ]);
  return profile!;
}

function profileOf(employee: Employee): EmployeeProfile {
  const { id: _id, isArchived: _archived, createdAt: _created, editedAt: _edited, ...profile } = employee;
  return profile;
}

export function decide(command: EmployeeCommand, state: EmployeeState, ctx: CommandContext): EmployeeEvent[] {
  switch (command.type) {
    case 'RegisterEmployee': {
      if (state.kind !== 'Unregistered') {
        throw conflict('EMPLOYEE_ALREADY_EXISTS', 'An employee with this id already exists.', { employeeId: command.data.employeeId });
      }
      const profile = judgedProfile(command.data);
      return [{ type: 'EmployeeRegistered', data: { employeeId: command.data.employeeId, profile, at: ctx.now } }];
    }
    case 'ReplaceEmployee': {
      const employee = existing(state);
      const profile = judgedProfile(command.data, profileOf(employee));
      // A replacement that changes nothing records nothing: no audit noise, no employee.updated webhook.
      if (sameJson(profile, profileOf(employee))) return [];
      return [{ type: 'EmployeeUpdated', data: { employeeId: employee.id, profile, at: ctx.now } }];
    }
    case 'ArchiveEmployee': {
      const employee = existing(state);
      return [{ type: 'EmployeeArchived', data: { employeeId: employee.id, at: ctx.now } }];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}
