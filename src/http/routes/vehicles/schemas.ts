// Vehicle request and response schemas. The body schema checks shapes, types and allow-lists; the
// domain and the owner lookup check meaning and key their errors by field.
import { Type, type Static } from '@sinclair/typebox';
import { ref } from '../../schemas/ref.js';
import type { VehicleFields } from '../../../domain/vehicles/index.js';
import { ENGINE_CAPACITY_CC_MAX, ENGINE_CAPACITY_CC_MIN, FUEL_TYPES, OWNERSHIPS } from '../../../domain/vehicles/index.js';
import { StringEnum, Uuid } from '../../schemas/common.js';
import { organizationPageOf } from '../cost-centers/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);
const Text = (max: number) => Type.String({ maxLength: max });

export const Ownership = StringEnum(OWNERSHIPS, { $id: 'VehicleOwnership' });
export const FuelType = StringEnum(FUEL_TYPES, { $id: 'FuelType' });

const EngineCapacityCc = Type.Integer({
  minimum: ENGINE_CAPACITY_CC_MIN,
  maximum: ENGINE_CAPACITY_CC_MAX,
  description: 'Cubic centimetres. Omitting it on a full-replacement update clears the stored value.',
});

export const VehicleBody = Type.Object(
  {
    registrationNumber: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'Shown as entered; unique among the company’s active vehicles ignoring case, spaces and dashes.',
    }),
    make: Type.Optional(Nullable(Text(100))),
    model: Type.Optional(Nullable(Text(100))),
    ownership: Ownership,
    employeeId: Type.Optional(
      Nullable({
        ...Uuid,
        description: 'The owner: an active employee; required for Private. A vehicle being archived may keep an owner archived since.',
      }),
    ),
    fuelType: Type.Optional(Nullable(FuelType)),
    engineCapacityCc: Type.Optional(Nullable(EngineCapacityCc)),
    isArchived: Type.Optional(Nullable(Type.Boolean({ description: 'Archive (true) or restore (false); default false.' }))),
  },
  {
    additionalProperties: false,
    $id: 'VehicleInput',
    examples: [
      {
        registrationNumber: 'ZG 1234-AB',
        make: 'Škoda',
        model: 'Octavia',
        ownership: 'Company',
        fuelType: 'Diesel',
        engineCapacityCc: 1968,
      },
    ],
  },
);

export const Vehicle = Type.Object(
  {
    id: Uuid,
    registrationNumber: Type.String(),
    make: Nullable(Type.String()),
    model: Nullable(Type.String()),
    ownership: Ownership,
    employeeId: Nullable(Type.String()),
    fuelType: Nullable(FuelType),
    engineCapacityCc: Nullable(Type.Integer()),
    isArchived: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    editedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Vehicle' },
);

export const VehiclePage = organizationPageOf(ref(Vehicle), 'VehiclePage');

/** One source of truth per shape: the request schema's static type must be what the domain takes. */
type Accepts<Taken, Sent extends Taken> = Sent;
export type RequestShapeChecks = [Accepts<VehicleFields, Static<typeof VehicleBody>>];
