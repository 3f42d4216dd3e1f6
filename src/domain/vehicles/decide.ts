// Vehicle decisions. A private vehicle names its owner; the owner and any other employee named must
// be an active employee of the tenant (the shell's lookup, judged with the core's problems in one
// 400). Archiving is always allowed; a delete of a vehicle that travel entries still name is 409
// RESOURCE_IN_USE. Registration-number uniqueness is held by the shell's claim (src/domain/code-claims).
import type { CommandContext } from '../decider.js';
import { conflict, notFound, validationError, type FieldErrors } from '../errors.js';
import { invisibleCharacterProblem, sameJson } from '../shared/text.js';
import { judgeWithLookups, resourceInUse } from '../shared/references.js';
import type { VehicleCommand, VehicleFields } from './commands.js';
import type { VehicleEvent } from './events.js';
import {
  ENGINE_CAPACITY_CC_MAX,
  ENGINE_CAPACITY_CC_MIN,
  FUEL_TYPES,
  OWNERSHIPS,
  type FuelType,
  type Ownership,
  type Vehicle,
  type VehicleRecord,
} from './model.js';
import type { VehicleState } from './state.js';

const blankToNull = (s: string | null | undefined): string | null => (s == null || s.trim() === '' ? null : s.trim());
const isOneOf = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);

/**
 * `stored`: the record a replacement changes. Its own texts pass unchanged (a vehicle stored before
 * invisible characters were refused can still be archived); a new or changed one must print as it
 * reads, as a cost center's code does: a zero-width space or soft hyphen made a second vehicle with
 * a registration number that looks the same (the fuzzing try, session 25).
 */
function validate(fields: VehicleFields, stored?: VehicleRecord): VehicleRecord {
  const errors: FieldErrors = {};
  const registrationNumber = fields.registrationNumber.trim();
  const make = blankToNull(fields.make);
  const model = blankToNull(fields.model);
  const texts = { registrationNumber, make, model } as const;
  for (const field of ['registrationNumber', 'make', 'model'] as const) {
    const problem = texts[field] === stored?.[field] ? null : invisibleCharacterProblem(texts[field]);
    if (problem) errors[field] = [problem];
  }
  if (registrationNumber.replace(/[\s-]+/g, '') === '') errors.registrationNumber = ['Required.'];
  if (!isOneOf(OWNERSHIPS, fields.ownership)) errors.ownership = [`Must be one of ${OWNERSHIPS.join(', ')}.`];
  const employeeId = fields.employeeId ?? null;
  if (fields.ownership === 'Private' && employeeId === null) errors.employeeId = ['Required for a Private vehicle: the owner.'];
  const fuelType = fields.fuelType ?? null;
  if (fuelType !== null && !isOneOf(FUEL_TYPES, fuelType)) errors.fuelType = [`Must be one of ${FUEL_TYPES.join(', ')}.`];
  const cc = fields.engineCapacityCc ?? null;
  if (cc !== null && (!Number.isInteger(cc) || cc < ENGINE_CAPACITY_CC_MIN || cc > ENGINE_CAPACITY_CC_MAX)) {
    errors.engineCapacityCc = [`Must be a whole number of cubic centimetres, ${ENGINE_CAPACITY_CC_MIN} to ${ENGINE_CAPACITY_CC_MAX}.`];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return {
    registrationNumber,
    make,
    model,
    ownership: fields.ownership as Ownership,
    employeeId,
    fuelType: fuelType as FuelType | null,
    engineCapacityCc: cc,
    isArchived: fields.isArchived ?? false,
  };
}

function existing(state: VehicleState): Vehicle {
  if (state.kind !== 'Existing') throw notFound('Vehicle');
  return state.vehicle;
}

const recordOf = ({ id: _id, createdAt: _c, editedAt: _e, ...record }: Vehicle): VehicleRecord => record;

export function decide(command: VehicleCommand, state: VehicleState, ctx: CommandContext): VehicleEvent[] {
  switch (command.type) {
    case 'CreateVehicle': {
      const { vehicleId, fields, lookupErrors } = command.data;
      if (state.kind !== 'Absent') throw conflict('ALREADY_EXISTS', 'A vehicle with this id already exists.');
      return judgeWithLookups(lookupErrors, () => [{ type: 'VehicleCreated', data: { vehicleId, record: validate(fields), at: ctx.now } }]);
    }
    case 'ReplaceVehicle': {
      const current = existing(state);
      const { fields, lookupErrors } = command.data;
      return judgeWithLookups(lookupErrors, () => {
        const record = validate(fields, recordOf(current));
        if (sameJson(record, recordOf(current))) return [];
        return [{ type: 'VehicleUpdated', data: { vehicleId: current.id, record, at: ctx.now } }];
      });
    }
    case 'DeleteVehicle': {
      const current = existing(state);
      resourceInUse('Vehicle', command.data.references);
      return [{ type: 'VehicleDeleted', data: { vehicleId: current.id, at: ctx.now } }];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}
