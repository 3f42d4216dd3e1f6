// The vehicle decider: registration number, ownership and owner, fuel type, engine capacity (cleared
// when omitted on a full replacement), delete refused while in use.
import t from 'tap';
import fc from 'fast-check';
import { vehicleDecider, type VehicleEvent, type VehicleFields } from '../../../src/domain/vehicles/index.js';
import { givenWhenThen, TEST_NOW } from '../../helpers/given-when-then.js';

const scenario = givenWhenThen(vehicleDecider);
const id = 'v0000000-0000-4000-8000-000000000001';
const owner = 'e0000000-0000-4000-8000-000000000001';
const car: VehicleFields = {
  registrationNumber: ' ZG 123-AB ',
  make: 'Škoda',
  model: 'Octavia',
  ownership: 'Company',
  fuelType: 'Diesel',
  engineCapacityCc: 1968,
};
const record = {
  registrationNumber: 'ZG 123-AB',
  make: 'Škoda',
  model: 'Octavia',
  ownership: 'Company' as const,
  employeeId: null,
  fuelType: 'Diesel' as const,
  engineCapacityCc: 1968,
  isArchived: false,
};
const created: VehicleEvent = { type: 'VehicleCreated', data: { vehicleId: id, record, at: TEST_NOW } };
const create = (fields: VehicleFields, lookupErrors = {}) => ({
  type: 'CreateVehicle' as const,
  data: { vehicleId: id, fields, lookupErrors },
});

t.test('create keeps the registration number as entered (trimmed)', async (t) => {
  scenario(t).given([]).when(create(car)).then([created]);
});

t.test('a private vehicle needs its owner; the owner lookup joins the 400', async (t) => {
  scenario(t)
    .given([])
    .when(create({ ...car, ownership: 'Private' }))
    .thenThrows('VALIDATION_FAILED', ['employeeId']);
  scenario(t)
    .given([])
    .when(create({ ...car, ownership: 'Private', employeeId: owner, registrationNumber: ' - ' }, { employeeId: ['No such.'] }))
    .thenThrows('VALIDATION_FAILED', ['employeeId', 'registrationNumber']);
});

t.test('allow-lists and the engine capacity range', async (t) => {
  scenario(t)
    .given([])
    .when(create({ ...car, ownership: 'Lease', fuelType: 'Coal' }))
    .thenThrows('VALIDATION_FAILED', ['ownership', 'fuelType']);
  fc.assert(
    fc.property(
      fc.oneof(
        fc.integer({ min: -100_000, max: 0 }),
        fc.integer({ min: 20_001, max: 1_000_000 }),
        fc.double({ min: 1.01, max: 19_999.99, noInteger: true }),
      ),
      (cc) => {
        try {
          vehicleDecider.decide(create({ ...car, engineCapacityCc: cc }), vehicleDecider.initialState(), {
            tenantId: 't',
            now: TEST_NOW,
            newId: () => 'x',
            actor: {},
          });
          return false;
        } catch (err) {
          return (err as { errors?: Record<string, unknown> }).errors?.engineCapacityCc !== undefined;
        }
      },
    ),
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 20_000 }), (cc) => {
      const [event] = vehicleDecider.decide(create({ ...car, engineCapacityCc: cc }), vehicleDecider.initialState(), {
        tenantId: 't',
        now: TEST_NOW,
        newId: () => 'x',
        actor: {},
      });
      return event?.type === 'VehicleCreated' && event.data.record.engineCapacityCc === cc;
    }),
  );
});

t.test('engineCapacityCc is cleared when omitted on a full replacement', async (t) => {
  const { engineCapacityCc: _cc, ...withoutCc } = car;
  scenario(t)
    .given([created])
    .when({ type: 'ReplaceVehicle', data: { vehicleId: id, fields: withoutCc, lookupErrors: {} } })
    .then([{ type: 'VehicleUpdated', data: { vehicleId: id, record: { ...record, engineCapacityCc: null }, at: TEST_NOW } }]);
});

t.test('delete while entries name it is RESOURCE_IN_USE; otherwise a tombstone', async (t) => {
  const err = scenario(t)
    .given([created])
    .when({ type: 'DeleteVehicle', data: { vehicleId: id, references: { travelEntries: 1 } } })
    .thenThrows('RESOURCE_IN_USE');
  t.same(err.extra, { references: { travelEntries: 1 } });
  scenario(t)
    .given([created])
    .when({ type: 'DeleteVehicle', data: { vehicleId: id, references: { travelEntries: 0 } } })
    .then([{ type: 'VehicleDeleted', data: { vehicleId: id, at: TEST_NOW } }]);
});

t.test('invisible characters in a new or changed registration number, make or model are refused, keyed by field', async (t) => {
  // The fuzzing try (session 25): `ZG 1\u200bA` and `ZG 1\u00adA` made second vehicles that look
  // like `ZG 1A`, and `\u202e` alone passed as a registration number.
  for (const [fields, keys] of [
    [{ registrationNumber: 'ZG 1\u200bA' }, ['registrationNumber']],
    [{ registrationNumber: 'ZG 1\u00adA' }, ['registrationNumber']],
    [{ registrationNumber: '\u202e' }, ['registrationNumber']],
    [{ make: 'Sko\u0007da', model: 'Oct\u2028avia' }, ['make', 'model']],
  ] as const) {
    scenario(t)
      .given([])
      .when(create({ ...car, ...fields }))
      .thenThrows('VALIDATION_FAILED', [...keys]);
    scenario(t)
      .given([created])
      .when({ type: 'ReplaceVehicle', data: { vehicleId: id, fields: { ...car, ...fields }, lookupErrors: {} } })
      .thenThrows('VALIDATION_FAILED', [...keys]);
  }
});

t.test('a vehicle stored with invisible characters can still be archived (its texts kept)', async (t) => {
  const odd = { ...record, registrationNumber: 'ZG 1\u200bA', make: 'Sko\u00adda' };
  const stored: VehicleEvent = { type: 'VehicleCreated', data: { vehicleId: id, record: odd, at: TEST_NOW } };
  const fields = { ...car, registrationNumber: odd.registrationNumber, make: odd.make };
  scenario(t)
    .given([stored])
    .when({ type: 'ReplaceVehicle', data: { vehicleId: id, fields: { ...fields, isArchived: true }, lookupErrors: {} } })
    .then([{ type: 'VehicleUpdated', data: { vehicleId: id, record: { ...odd, isArchived: true }, at: TEST_NOW } }]);
  scenario(t)
    .given([stored])
    .when({ type: 'ReplaceVehicle', data: { vehicleId: id, fields: { ...fields, model: 'Oct\u200bavia' }, lookupErrors: {} } })
    .thenThrows('VALIDATION_FAILED', ['model']); // a changed text is checked
});
