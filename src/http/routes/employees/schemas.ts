// Employee request and response schemas. The body schema checks shapes and types; the domain
// checks meaning (IBAN checksum, custom-field definitions, ...) and keys its errors by field.
import { Type, type Static } from '@sinclair/typebox';
import { ref } from '../../schemas/ref.js';
import type { EmployeeFields } from '../../../domain/employees/index.js';
import { EMPLOYEE_STATUSES, RESIDENCIES } from '../../../domain/employees/index.js';
import { PageQuery, StringEnum, Uuid } from '../../schemas/common.js';
import { CursorQuery, listPageOf } from '../../cursor.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);
const Text = (max: number) => Type.String({ maxLength: max });

export const EmployeeStatus = StringEnum(EMPLOYEE_STATUSES, { $id: 'EmployeeStatus' });
export const Residency = StringEnum(RESIDENCIES, { $id: 'Residency' });

const AddressIn = Type.Object(
  {
    street: Type.Optional(Nullable(Text(200))),
    postalCode: Type.Optional(Nullable(Text(20))),
    city: Type.Optional(Nullable(Text(100))),
    countryCode: Type.Optional(Nullable(Text(2))),
    municipalityCode: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 5,
          description:
            'HR or SI addresses only: the municipality code (HR 5 digits, SI 3 digits) from GET /api/v1/reference/croatian-municipalities or /slovenian-municipalities.',
          examples: ['00604'],
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const EmployeeBody = Type.Object(
  {
    firstName: Text(100),
    lastName: Text(100),
    email: Type.Optional(Nullable(Text(254))),
    phone: Type.Optional(Nullable(Text(40))),
    address: Type.Optional(Nullable(AddressIn)),
    taxId: Type.Optional(Nullable(Text(50))),
    bankAccountNumber: Type.Optional(Nullable(Text(50))),
    bankIdentifierCode: Type.Optional(Nullable(Text(20))),
    position: Type.Optional(Nullable(Text(100))),
    departmentId: Type.Optional(Nullable(Uuid)),
    status: Type.Optional(Nullable(EmployeeStatus)),
    isAccountOwner: Type.Optional(Nullable(Type.Boolean())),
    residency: Type.Optional(Nullable(Residency)),
    customFields: Type.Optional(
      Nullable(
        Type.Record(
          Type.String({ maxLength: 64 }),
          Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean(), Type.Null()]),
        ),
      ),
    ),
  },
  { additionalProperties: false, $id: 'EmployeeInput' },
);

export const Employee = Type.Object(
  {
    id: Uuid,
    firstName: Type.String(),
    lastName: Type.String(),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    address: Nullable(
      Type.Object({
        street: Nullable(Type.String()),
        postalCode: Nullable(Type.String()),
        city: Nullable(Type.String()),
        countryCode: Type.String(),
        municipalityCode: Type.Optional(Type.String({ description: 'HR or SI only; absent when not given.' })),
      }),
    ),
    taxId: Nullable(Type.String()),
    bankAccountNumber: Nullable(Type.String({ description: 'IBAN, electronic format.' })),
    bankIdentifierCode: Nullable(Type.String()),
    position: Nullable(Type.String()),
    departmentId: Nullable(Type.String()),
    status: EmployeeStatus,
    isAccountOwner: Type.Boolean(),
    isArchived: Type.Boolean(),
    residency: Residency,
    customFields: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    createdAt: Type.String({ format: 'date-time' }),
    editedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Employee' },
);

export const EmployeePage = listPageOf(ref(Employee), 'EmployeePage');

export const EmployeeListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    status: Type.Optional(EmployeeStatus),
    isArchived: Type.Optional(Type.Boolean()),
    updatedSince: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Only employees edited at or after this instant (incremental sync), in the order the edits were recorded: paging with cursors misses no employee edited meanwhile.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** One source of truth per shape: the request schema's static type must be what the domain takes. */
type Accepts<Taken, Sent extends Taken> = Sent;
export type RequestShapeChecks = [Accepts<EmployeeFields, Static<typeof EmployeeBody>>];
